import HostStorage

/// A mail as the portal's Mailbox page reads it: its QR as an SVG image beside its text.
extension Mail: Encodable {
    package enum CodingKeys: String, CodingKey { case id, to, subject, body, qrPayload, qrSvg, createdAt }

    /// Writes the QR as an SVG image beside its text, both `null` for a mail without one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(to, forKey: .to)
        try c.encode(subject, forKey: .subject)
        try c.encode(body, forKey: .body)
        try c.encode(qrPayload, forKey: .qrPayload)
        try c.encode(qrPayload.flatMap { try? QRImage.svg($0) }, forKey: .qrSvg)
        try c.encode(createdAt, forKey: .createdAt)
    }
}
