import Foundation

/// Reading and decoding the data files (`environments.json`, `merchants.json`, `magic-amounts.json`,
/// `fx.json` …) with the catalogue's one-line errors.
enum DataFile {
    /// The bytes of a file.
    ///
    /// - Parameter file: the name the error gives (default: the last path component).
    /// - Throws: ``CatalogueError`` `.unreadable` at `(root)`, saying why the system refused.
    static func read(_ url: URL, as file: String? = nil) throws(CatalogueError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CatalogueError(
                code: .unreadable, file: file ?? url.lastPathComponent, path: "(root)",
                reason: "cannot read \(url.path): \(failure(error))")
        }
    }

    /// Why reading or listing failed, in words: the system's own reason when Foundation has one
    /// (`too many open files`), not just its generic "could not be completed".
    static func failure(_ error: any Error) -> String {
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        switch cocoa.code {
        case .fileReadNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default:
            if let posix = cocoa.userInfo[NSUnderlyingErrorKey] as? POSIXError {
                return String(cString: strerror(posix.code.rawValue))
            }
            if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return String(cString: strerror(Int32(underlying.code)))
            }
            return cocoa.localizedDescription
        }
    }

    /// Decodes a checked document, turning a `DecodingError` into its `file: path: reason` line.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws(CatalogueError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw CatalogueError(error, file: file, data: data)
        } catch {
            throw CatalogueError(code: .invalid, file: file, path: "(root)", reason: "\(error)")
        }
    }
}
