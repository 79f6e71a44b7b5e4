/// The request bodies of the terminal API's registration and session calls
/// (docs/terminal-lifecycle.md): what the SDK sends and the host reads, one type each. Absent
/// optionals are left out when written; the host refuses a missing required field with
/// `invalid_json` naming it.
///
/// ```swift
/// TerminalBodies.Login(deviceId: "my-phone", deviceSecret: secret, pin: "1234")
/// // {"deviceId":"my-phone","deviceSecret":"…","pin":"1234"}  →  POST /terminal/v1/sessions
/// ```
public enum TerminalBodies {
    /// `POST /terminal/v1/registrations`: a device asks to register and gets a challenge code.
    public struct Begin: Codable, Sendable, Equatable {
        public let deviceId: String
        public let deviceModel: String
        public let osVersion: String?
        public init(deviceId: String, deviceModel: String, osVersion: String?) {
            self.deviceId = deviceId
            self.deviceModel = deviceModel
            self.osVersion = osVersion
        }
    }

    /// `POST /terminal/v1/registrations/verify-code`: is this back-office code valid?
    public struct Code: Codable, Sendable, Equatable {
        public let code: String
        public init(code: String) { self.code = code }
    }

    /// `POST /terminal/v1/registrations/complete`: the back-office code and the secure code.
    public struct Complete: Codable, Sendable, Equatable {
        public let deviceId: String
        public let backofficeCode: String
        public let pin: String?
        public init(deviceId: String, backofficeCode: String, pin: String?) {
            self.deviceId = deviceId
            self.backofficeCode = backofficeCode
            self.pin = pin
        }
    }

    /// `POST /terminal/v1/registrations/token/verify`. `deviceId` (not in the seed's call, sent by
    /// our SDK) lets the device that began a registration verify it again.
    public struct Token: Codable, Sendable, Equatable {
        public let registrationToken: String
        public let deviceId: String?
        public init(registrationToken: String, deviceId: String?) {
            self.registrationToken = registrationToken
            self.deviceId = deviceId
        }
    }

    /// `POST /terminal/v1/registrations/token/begin`.
    public struct TokenBegin: Codable, Sendable, Equatable {
        public let registrationToken: String
        public let deviceId: String
        public let deviceModel: String
        public init(registrationToken: String, deviceId: String, deviceModel: String) {
            self.registrationToken = registrationToken
            self.deviceId = deviceId
            self.deviceModel = deviceModel
        }
    }

    /// `POST /terminal/v1/registrations/token/complete`.
    public struct TokenEnd: Codable, Sendable, Equatable {
        public let registrationToken: String
        public let deviceId: String
        public let pin: String?
        public init(registrationToken: String, deviceId: String, pin: String?) {
            self.registrationToken = registrationToken
            self.deviceId = deviceId
            self.pin = pin
        }
    }

    /// `POST /terminal/v1/sessions`: log in with the device secret and the secure code.
    public struct Login: Codable, Sendable, Equatable {
        public let deviceId: String
        public let deviceSecret: String
        public let pin: String?
        public init(deviceId: String, deviceSecret: String, pin: String?) {
            self.deviceId = deviceId
            self.deviceSecret = deviceSecret
            self.pin = pin
        }
    }

    /// `PUT /terminal/v1/secret-code`.
    public struct SecretCode: Codable, Sendable, Equatable {
        public let oldSecretCode: String
        public let newSecretCode: String
        public init(oldSecretCode: String, newSecretCode: String) {
            self.oldSecretCode = oldSecretCode
            self.newSecretCode = newSecretCode
        }
    }

    /// `POST /terminal/v1/devices/status` and `POST /terminal/v1/unregister`: the device's credential.
    public struct Device: Codable, Sendable, Equatable {
        public let deviceId: String
        public let deviceSecret: String
        public init(deviceId: String, deviceSecret: String) {
            self.deviceId = deviceId
            self.deviceSecret = deviceSecret
        }
    }

    /// `POST /terminal/v1/support-number`.
    public struct Support: Codable, Sendable, Equatable {
        public let deviceId: String
        public init(deviceId: String) { self.deviceId = deviceId }
    }
}
