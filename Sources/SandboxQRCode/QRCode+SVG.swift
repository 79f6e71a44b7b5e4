extension QRCode {
    /// The symbol as a compact, standalone SVG image.
    ///
    /// Dark modules are merged into horizontal runs and drawn as one `<path>` over a white
    /// background, with `shape-rendering="crispEdges"` so that no anti-aliasing seams appear
    /// between modules. The `viewBox` counts modules and `width`/`height` give pixels, so the
    /// image scales cleanly in a page.
    ///
    /// ```swift
    /// let code = try QRCode(text: "RT-8F2K")
    /// let svg = code.svg(moduleSize: 6, quietZone: 4)
    /// // <svg xmlns="http://www.w3.org/2000/svg" width="174" height="174" viewBox="0 0 29 29"
    /// //      shape-rendering="crispEdges"><rect …/><path fill="#000000" d="M4 4h7v1h-7z…"/></svg>
    /// ```
    ///
    /// - Parameters:
    ///   - moduleSize: Pixels per module in `width` and `height`; at least 1. Default 8.
    ///   - quietZone: Light modules around the symbol; scanners need 4 (the default).
    /// - Returns: An SVG document, without an XML declaration so it can also be inlined in HTML.
    public func svg(moduleSize: Int = 8, quietZone: Int = 4) -> String {
        precondition(moduleSize >= 1, "QRCode.svg(moduleSize:) needs at least 1 pixel per module")
        precondition(quietZone >= 0, "QRCode.svg(quietZone:) cannot be negative")
        let side = size + 2 * quietZone
        let pixels = side * moduleSize

        // One subpath per horizontal run of dark modules: move, right, down 1, back, close. Written
        // as bytes: a host draws one for every QR order it answers, and string interpolation per
        // run was most of the cost.
        var path: [UInt8] = []
        path.reserveCapacity(size * size)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, isDark(x: x, y: y) { x += 1 }
                let run = x - start
                path.append(UInt8(ascii: "M"))
                Self.appendDecimal(start + quietZone, to: &path)
                path.append(UInt8(ascii: " "))
                Self.appendDecimal(y + quietZone, to: &path)
                path.append(UInt8(ascii: "h"))
                Self.appendDecimal(run, to: &path)
                path.append(contentsOf: "v1h-".utf8)
                Self.appendDecimal(run, to: &path)
                path.append(UInt8(ascii: "z"))
            }
        }

        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#ffffff"/>\
            <path fill="#000000" d="\(String(decoding: path, as: UTF8.self))"/></svg>
            """
    }

    /// Appends the decimal digits of `value` (not negative).
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
