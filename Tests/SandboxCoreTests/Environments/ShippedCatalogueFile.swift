import Foundation
import SandboxTestSupport

/// The shipped environment catalogue, `sandbox-data/environments.json` in this checkout.
let shippedCatalogueFile = Paths.sandboxData.appendingPathComponent("environments.json")
