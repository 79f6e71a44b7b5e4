// Decoding helpers for nested objects that need context (their region) besides their JSON.
//
// `Decodable.init(from:)` cannot take arguments, so nested fixture objects are decoded through
// `superDecoder`, which keeps the exact coding path for error messages while letting the caller
// pass the region along.

extension KeyedDecodingContainer {
    /// A decoder for the object at `key`, refusing a missing key or null with the catalogue's words.
    ///
    /// - Throws: `keyNotFound` when absent, `valueNotFound` ("expected an object, found null")
    ///   when null. A value of another type fails later, when the caller asks for a container.
    func objectDecoder(forKey key: Key) throws -> any Decoder {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                [String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "null"))
        }
        return try superDecoder(forKey: key)
    }

    /// A decoder for the object at `key`, or nil when the key is absent or null.
    func objectDecoderIfPresent(forKey key: Key) throws -> (any Decoder)? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try superDecoder(forKey: key)
    }

    /// Decodes every object of the list at `key` with `body`, which gets each element's decoder
    /// and index.
    ///
    /// - Throws: `keyNotFound` when absent, a type mismatch ("expected a list") for another
    ///   type, `valueNotFound` for a null element, and whatever `body` throws.
    func decodeObjects<Element>(
        forKey key: Key, _ body: (any Decoder, Int) throws -> Element
    ) throws -> [Element] {
        var list = try nestedUnkeyedContainer(forKey: key)
        var elements: [Element] = []
        while !list.isAtEnd {
            let index = list.currentIndex
            if try list.decodeNil() {
                throw DecodingError.valueNotFound(
                    [String: Any].self,
                    .init(codingPath: codingPath + [key, FieldKey(intValue: index)], debugDescription: "null"))
            }
            elements.append(try body(try list.superDecoder(), index))
        }
        return elements
    }
}
