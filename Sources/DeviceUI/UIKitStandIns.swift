#if !canImport(UIKit)
/// Where UIKit is missing, the other UIKit types the seeds' code names (PagBank's `PresentStyle`
/// and `UIColorPartner`, its example's root-view-controller lookup), so that code compiles here
/// as written. They draw nothing.

/// A navigation stack (PagBank's `.push(UINavigationController)`).
@preconcurrency @MainActor
open class UINavigationController: UIViewController {
    public private(set) var viewControllers: [UIViewController]

    public init(rootViewController: UIViewController) {
        viewControllers = [rootViewController]
        super.init()
    }

    public override init() {
        viewControllers = []
        super.init()
    }
}

/// A colour, kept as its components (PagBank's `UIColorPartner` colours).
public final class UIColor: Sendable, Equatable {
    public let red: Double
    public let green: Double
    public let blue: Double
    public let alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue, lhs.alpha) == (rhs.red, rhs.green, rhs.blue, rhs.alpha)
    }

    // UIKit's named colours, with its component values.
    public static let black = UIColor(red: 0, green: 0, blue: 0, alpha: 1)
    public static let darkGray = UIColor(red: 1.0 / 3, green: 1.0 / 3, blue: 1.0 / 3, alpha: 1)
    public static let gray = UIColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
    public static let white = UIColor(red: 1, green: 1, blue: 1, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let systemPink = UIColor(red: 1, green: 45.0 / 255, blue: 85.0 / 255, alpha: 1)
}

/// The app (`UIApplication.shared.connectedScenes`): one window scene whose window holds a root
/// view controller, as a launched app has.
@preconcurrency @MainActor
public final class UIApplication {
    public static let shared = UIApplication()

    public var connectedScenes: Set<UIScene>

    private init() {
        connectedScenes = [UIWindowScene(windows: [UIWindow(rootViewController: UIViewController())])]
    }
}

@preconcurrency @MainActor
open class UIScene: Hashable {
    public init() {}

    nonisolated public static func == (lhs: UIScene, rhs: UIScene) -> Bool { lhs === rhs }
    nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@preconcurrency @MainActor
public final class UIWindowScene: UIScene {
    public var windows: [UIWindow]

    public init(windows: [UIWindow]) {
        self.windows = windows
        super.init()
    }
}

@preconcurrency @MainActor
public final class UIWindow {
    public var rootViewController: UIViewController?

    public init(rootViewController: UIViewController? = nil) {
        self.rootViewController = rootViewController
    }
}
#endif
