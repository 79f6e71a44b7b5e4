import CCurl

extension HTTPClientError {
    /// Maps a failed transfer's `CURLcode` to an error kind, keeping curl's code and message.
    static func fromCurl(_ code: CURLcode, message: String) -> HTTPClientError {
        let kind: HTTPClientError
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            kind = .unsupportedScheme
        case CURLE_URL_MALFORMAT:
            kind = .invalidURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .hostNotFound
        case CURLE_COULDNT_CONNECT:
            kind = .connectionFailed
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timedOut
        case CURLE_FILESIZE_EXCEEDED:
            kind = .responseTooLarge
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            kind = .tls
        default:
            kind = .transport
        }
        return kind.with(curlCode: Int(code.rawValue), message: message)
    }
}
