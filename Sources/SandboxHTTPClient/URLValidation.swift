import CCurl

/// Checks a request URL with libcurl's own parser before a handle is spent on it.
///
/// curl would reject a bad URL too, but only after taking a pooled handle and with a less
/// specific code; this way `ftp://` is ``HTTPClientError/unsupportedScheme``, not a transport error.
enum URLValidation {
    static func validate(_ url: String) throws(HTTPClientError) {
        // A NUL would silently cut the C string short and send a request to a different URL.
        guard !url.utf8.contains(0) else {
            throw HTTPClientError.invalidURL.with(message: "URL contains a NUL byte")
        }
        guard let parsed = curl_url() else {
            throw HTTPClientError.transport.with(message: "curl_url failed")
        }
        defer { curl_url_cleanup(parsed) }

        let parseCode = curl_url_set(parsed, CURLUPART_URL, url, 0)
        guard parseCode == CURLUE_OK else {
            throw HTTPClientError.invalidURL.with(message: "\(String(cString: curl_url_strerror(parseCode))): \(url)")
        }

        var scheme: UnsafeMutablePointer<CChar>?
        guard curl_url_get(parsed, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK, let scheme else {
            throw HTTPClientError.invalidURL.with(message: "no scheme: \(url)")
        }
        defer { curl_free(scheme) }
        let name = String(cString: scheme).lowercased()
        guard name == "http" || name == "https" else {
            throw HTTPClientError.unsupportedScheme.with(message: "scheme \(name) is not http or https")
        }
    }
}
