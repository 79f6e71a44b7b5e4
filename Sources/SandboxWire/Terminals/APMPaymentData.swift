/// The seed's namespace of APM data.
public enum APMPaymentData {
    /// An alternative payment method brand (`ALIPAY`, `WECHATPAY`, `PAYCONIQ`, `BLIK`, `TWINT` …).
    ///
    /// A wrapper over the wire's string so a brand the SDK does not list yet still decodes.
    public struct APMBrand: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ALIPAY = APMBrand(rawValue: "ALIPAY")
        public static let WECHATPAY = APMBrand(rawValue: "WECHATPAY")
        public static let PAYCONIQ = APMBrand(rawValue: "PAYCONIQ")
        public static let BLIK = APMBrand(rawValue: "BLIK")
        public static let TWINT = APMBrand(rawValue: "TWINT")

        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }
    }
}
