import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession engine: Apple platforms' transport, and FoundationNetworking's on Linux (tested
/// there beside libcurl).
final class URLSessionEngine: Sending {
    private let session: URLSession

    init(timeout: TimeInterval, userAgent: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpAdditionalHeaders = ["Accept": "application/json", "User-Agent": userAgent]
        session = URLSession(configuration: configuration)
    }

    deinit {
        // Lets the session go once its running tasks end.
        session.finishTasksAndInvalidate()
    }

    func send(_ method: String, _ url: URL, headers: [String: String], body: Data?) async -> DeviceTransport.Outcome {
        let target = url.absoluteString
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let call = Call()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DeviceTransport.Outcome, Never>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failed(Self.failure(error, target: target)))
                    } else if let http = response as? HTTPURLResponse {
                        continuation.resume(returning: .answer(status: http.statusCode, body: data ?? Data()))
                    } else {
                        continuation.resume(returning: .failed(.invalidResponse(target)))
                    }
                }
                if call.start(task) {
                    task.resume()
                } else {
                    // Cancelled between the transport's check and here: nothing was sent.
                    continuation.resume(returning: .failed(.cancelledBeforeSending(target)))
                }
            }
        } onCancel: {
            call.cancel()
        }
    }

    /// The task of one call and whether its caller cancelled: a cancel that comes before the
    /// task exists keeps it from starting, one that comes after cancels it.
    private final class Call: Sendable {
        private let state = Mutex<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))

        /// Records `task`; false when the call was cancelled already.
        func start(_ task: URLSessionDataTask) -> Bool {
            let unchecked = UncheckedTask(task: task)
            return state.withLock { state in
                guard !state.cancelled else { return false }
                state.task = unchecked.task
                return true
            }
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                return UncheckedTask(task: state.task)
            }
            task.task?.cancel()
        }
    }

    /// URLSessionDataTask is thread-safe but not marked Sendable in every Foundation.
    private struct UncheckedTask: @unchecked Sendable {
        let task: URLSessionDataTask?
    }

    /// The URLError a task ended with, in the transport's terms (the libcurl engine's, fault for fault).
    static func failure(_ error: any Error, target: String) -> DeviceTransport.Failure {
        guard let error = error as? URLError else { return .unreachable(target, error.localizedDescription) }
        switch error.code {
        case .timedOut:
            return .timeout(target)
        case .cancelled:
            return .cancelled(target)
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse,
            .cannotDecodeRawData, .cannotDecodeContentData, .dataLengthExceedsMaximum, .resourceUnavailable, .unknown:
            // Connected and sent: the answer broke off or could not be read as HTTP. FoundationNetworking
            // reports a connection closed before the answer as `unknown` (curl's "transfer closed with
            // outstanding read data remaining"); like libcurl's unnamed failures, it may have been received.
            return .connectionLost(target, error.localizedDescription)
        default:
            // cannotConnectToHost, cannotFindHost, dnsLookupFailed, notConnectedToInternet,
            // badURL, unsupportedURL, secureConnectionFailed, appTransportSecurity…: nothing was sent.
            return .unreachable(target, error.localizedDescription)
        }
    }
}
