#if !canImport(Combine)
// The two Combine names the sample app's store uses for SwiftUI (`ObservableObject`, `@Published`),
// standing in on Linux so that the store's own source (App/, symlinked from
// Examples/TapToPayDemo.swiftpm/Sources) compiles and runs here. Nothing observes it: the test
// reads the store's properties after each call.

protocol ObservableObject: AnyObject {}

@propertyWrapper
struct Published<Value> {
    var wrappedValue: Value

    init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}
#endif
