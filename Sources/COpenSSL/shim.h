#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/err.h>

/* SHA-256's own state, for HMAC's key schedule done once per key (SandboxCrypto's
 * HMACSHA256.KeyEngine): a keyed state is then a plain struct that each message copies, where
 * EVP_MAC re-initialises a context through the provider layer for every message. The functions
 * are deprecated in OpenSSL 3 in favour of EVP, which offers no copyable state; wrapped here so
 * that the deprecation is acknowledged once, in C. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline int sandbox_sha256_init(SHA256_CTX *context) { return SHA256_Init(context); }
static inline int sandbox_sha256_update(SHA256_CTX *context, const void *bytes, size_t count) {
    return SHA256_Update(context, bytes, count);
}
static inline int sandbox_sha256_final(unsigned char *digest, SHA256_CTX *context) { return SHA256_Final(digest, context); }
#pragma clang diagnostic pop
