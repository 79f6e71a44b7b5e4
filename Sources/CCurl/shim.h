#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift needs one typed wrapper per argument kind.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_write_callback(CURL *handle, CURLoption option, ccurl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode ccurl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

// Response headers arrive one line at a time through the same signature as the body callback.
typedef size_t (*ccurl_header_callback)(char *data, size_t size, size_t count, void *userdata);
// Progress callback: a non-zero return aborts the transfer (used for cancellation).
typedef int (*ccurl_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode ccurl_setopt_header_callback(CURL *handle, CURLoption option, ccurl_header_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_setopt_xferinfo_callback(CURL *handle, CURLoption option, ccurl_xferinfo_callback value) {
    return curl_easy_setopt(handle, option, value);
}
