import CCurl

// curl_global_init is not thread-safe and must run once before any handle exists; a global
// `let` gives exactly-once, thread-safe initialisation. It is never cleaned up: handles may
// outlive any point we could pick.
private let curlGlobalInitCode: Int = Int(curl_global_init(Int(CURL_GLOBAL_ALL)).rawValue)

enum CurlGlobal {
    /// Initialises libcurl once per process.
    ///
    /// - Throws: ``HTTPClientError/transport`` when libcurl cannot start (no TLS backend, no memory).
    static func ensureInitialized() throws(HTTPClientError) {
        guard curlGlobalInitCode == Int(CURLE_OK.rawValue) else {
            throw HTTPClientError.transport.with(curlCode: curlGlobalInitCode, message: "curl_global_init failed")
        }
    }
}
