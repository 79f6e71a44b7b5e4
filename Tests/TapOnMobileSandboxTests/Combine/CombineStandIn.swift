#if !canImport(Combine)
import Foundation

// A stand-in of the few Combine types that the SDK's publishers (TapOnMobile+Combine.swift, which
// this target compiles through a symlink) and the seed's examples use, with Combine's names,
// signatures and behaviour: nothing is sent before the subscriber's first demand or beyond it, an
// `AnyCancellable` cancels when it is released, and `receive(on:)` delivers on the queue. Linux has no Combine; with this, the code that Apple
// platforms compile against Combine is type-checked and run here on every build.

public protocol Cancellable {
    func cancel()
}

/// Cancels when released, as Combine's does: a `sink` whose result is dropped receives nothing.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private let lock = NSLock()
    private var onCancel: (() -> Void)?

    public init(_ cancel: @escaping () -> Void) {
        onCancel = cancel
    }

    public convenience init(_ canceller: some Cancellable) {
        self.init { canceller.cancel() }
    }

    deinit {
        cancel()
    }

    public func cancel() {
        lock.lock()
        let cancel = onCancel
        onCancel = nil
        lock.unlock()
        cancel?()
    }

    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

public enum Subscribers {
    /// How many more values a subscriber takes: a number, or `unlimited` (which stays unlimited).
    public struct Demand: Equatable, Hashable, Sendable {
        /// The number, or nil for unlimited (Combine's `max`).
        public let max: Int?

        public static let unlimited = Demand(max: nil)
        public static let none = Demand(max: 0)
        public static func max(_ value: Int) -> Demand { Demand(max: value) }

        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max, let right = rhs.max else { return .unlimited }
            return Demand(max: left + right)
        }
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        public static func - (lhs: Demand, rhs: Int) -> Demand { lhs.max.map { Demand(max: Swift.max(0, $0 - rhs)) } ?? .unlimited }
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }
        public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 > rhs } ?? true }
    }

    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }

    /// What `sink` subscribes: asks for every value, hands each to `receiveValue`.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
        private let lock = NSLock()
        private var subscription: (any Subscription)?
        private var done = false
        private let receiveValue: (Input) -> Void
        private let receiveCompletion: (Completion<Failure>) -> Void

        public init(receiveCompletion: @escaping (Completion<Failure>) -> Void, receiveValue: @escaping (Input) -> Void) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard self.subscription == nil, !done else {
                lock.unlock()
                return subscription.cancel()
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ input: Input) -> Demand {
            guard lock.withLock({ !done }) else { return .none }
            receiveValue(input)
            return .none
        }

        public func receive(completion: Completion<Failure>) {
            guard lock.withLock({ () -> Bool in
                defer { done = true; subscription = nil }
                return !done
            }) else { return }
            receiveCompletion(completion)
        }

        public func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                defer { done = true; self.subscription = nil }
                return self.subscription
            }
            subscription?.cancel()
        }
    }
}

public protocol Subscription: Cancellable {
    func request(_ demand: Subscribers.Demand)
}

public protocol Subscriber<Input, Failure> {
    associatedtype Input
    associatedtype Failure: Error
    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

/// A value the compiler may send across threads because the stand-in guards it itself.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
}

/// One subscriber's side of a `Just` or a `Future`: it holds what the subscriber asked for and
/// delivers only within it; `onFirstDemand` runs at the first positive demand, where they send.
final class Delivery<S: Subscriber>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var subscriber: S?
    private var demand = Subscribers.Demand.none
    private var asked = false
    private var onFirstDemand: ((Delivery<S>) -> Void)?

    init(_ subscriber: S, onFirstDemand: ((Delivery<S>) -> Void)? = nil) {
        self.subscriber = subscriber
        self.onFirstDemand = onFirstDemand
    }

    func request(_ more: Subscribers.Demand) {
        let first = lock.withLock { () -> ((Delivery<S>) -> Void)? in
            demand = demand + more
            guard more > 0, !asked else { return nil }
            asked = true
            defer { onFirstDemand = nil }
            return onFirstDemand
        }
        first?(self)
    }

    func cancel() {
        lock.withLock {
            subscriber = nil
            onFirstDemand = nil
        }
    }

    /// Sends `input` if the subscriber still asks for one; a value nobody asked for is dropped.
    func send(_ input: S.Input) {
        let target = lock.withLock { () -> S? in
            guard let subscriber, demand > 0 else { return nil }
            demand -= 1
            return subscriber
        }
        guard let target else { return }
        let more = target.receive(input)
        if more != .none { lock.withLock { demand = demand + more } }
    }

    func finish(_ completion: Subscribers.Completion<S.Failure>) {
        let target = lock.withLock { () -> S? in
            defer { subscriber = nil }
            return subscriber
        }
        target?.receive(completion: completion)
    }
}

/// One value, sent at the first demand, then the end.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output

    public init(_ output: Output) {
        self.output = output
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let output = output
        subscriber.receive(subscription: Delivery(subscriber) { delivery in
            delivery.send(output)
            delivery.finish(.finished)
        })
    }
}

/// Runs its closure once, at creation, and gives its one result to every subscriber that asks.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    public typealias Promise = (Result<Output, Failure>) -> Void

    private let lock = NSLock()
    private var result: Result<Output, Failure>?
    private var waiting: [(Result<Output, Failure>) -> Void] = []

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            let waiting = lock.withLock { () -> [(Result<Output, Failure>) -> Void] in
                guard self.result == nil else { return [] }
                self.result = result
                defer { self.waiting = [] }
                return self.waiting
            }
            waiting.forEach { $0(result) }
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Delivery(subscriber) { [self] delivery in
            let deliver: (Result<Output, Failure>) -> Void = { result in
                switch result {
                case .success(let value):
                    delivery.send(value)
                    delivery.finish(.finished)
                case .failure(let error):
                    delivery.finish(.failure(error))
                }
            }
            let known = lock.withLock { () -> Result<Output, Failure>? in
                if result == nil { waiting.append(deliver) }
                return result
            }
            if let known { deliver(known) }
        })
    }
}

/// Makes its publisher for each subscriber, when it subscribes.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure
    public let createPublisher: () -> DeferredPublisher

    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}

/// A publisher with its type erased.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let subscribe: (AnySubscriber<Output, Failure>) -> Void

    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        subscribe = { publisher.receive(subscriber: $0) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribe(AnySubscriber(subscriber))
    }
}

/// A subscriber with its type erased.
public struct AnySubscriber<Input, Failure: Error>: Subscriber {
    private let subscription: (any Subscription) -> Void
    private let input: (Input) -> Subscribers.Demand
    private let completion: (Subscribers.Completion<Failure>) -> Void

    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        subscription = subscriber.receive(subscription:)
        input = subscriber.receive(_:)
        completion = subscriber.receive(completion:)
    }

    init(
        subscription: @escaping (any Subscription) -> Void, input: @escaping (Input) -> Subscribers.Demand,
        completion: @escaping (Subscribers.Completion<Failure>) -> Void
    ) {
        self.subscription = subscription
        self.input = input
        self.completion = completion
    }

    public func receive(subscription: any Subscription) { self.subscription(subscription) }
    public func receive(_ input: Input) -> Subscribers.Demand { self.input(input) }
    public func receive(completion: Subscribers.Completion<Failure>) { self.completion(completion) }
}

public enum Publishers {
    /// Delivers values and the end on `queue`, in order.
    public struct ReceiveOn<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        let upstream: Upstream
        let queue: DispatchQueue

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let target = Unchecked(value: subscriber)
            let queue = queue
            upstream.receive(subscriber: AnySubscriber<Output, Failure>(
                subscription: { subscriber.receive(subscription: $0) },
                input: { value in
                    let value = Unchecked(value: value)
                    queue.async { _ = target.value.receive(value.value) }
                    return .none
                },
                completion: { completion in
                    let completion = Unchecked(value: completion)
                    queue.async { target.value.receive(completion: completion.value) }
                }))
        }
    }
}

extension Publisher {
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }

    public func receive(on queue: DispatchQueue) -> Publishers.ReceiveOn<Self> {
        Publishers.ReceiveOn(upstream: self, queue: queue)
    }

    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        receive(subscriber: sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
#endif
