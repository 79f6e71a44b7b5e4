#if canImport(UIKit)
// On iOS the types the seeds' calls name (UIViewController, UINavigationController, UIColor …) are
// UIKit's own: a device library that re-exports this module brings UIKit along, as the vendors'
// frameworks do with their umbrella headers. Elsewhere the stand-ins beside this file take its place.
@_exported import UIKit
#endif
