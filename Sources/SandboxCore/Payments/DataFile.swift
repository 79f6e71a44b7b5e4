import Foundation

/// Reading and decoding the payment data files (`magic-amounts.json`, `fx.json`) with the
/// catalogue's one-line errors.
enum DataFile {
    /// The bytes of a file.
    ///
    /// - Throws: ``CatalogueError`` `.unreadable` at `(root)`, naming the file by its last
    ///   path component.
    static func read(_ url: URL) throws(CatalogueError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let reason: String
            switch (error as? CocoaError)?.code {
            case .fileReadNoSuchFile?: reason = "no such file"
            case .fileReadNoPermission?: reason = "permission denied"
            default: reason = (error as? CocoaError)?.localizedDescription ?? "\(error)"
            }
            throw CatalogueError(
                code: .unreadable, file: url.lastPathComponent, path: "(root)", reason: "cannot read \(url.path): \(reason)")
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
