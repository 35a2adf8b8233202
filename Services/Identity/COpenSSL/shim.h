// The parts of OpenSSL's libcrypto KeychainLab uses: CMS, X.509 stores, PEM and BIO.
#ifndef KEYCHAINLAB_COPENSSL_SHIM_H
#define KEYCHAINLAB_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>

// BIO_get_mem_data is a macro; Swift cannot call macros.
static inline long keychainlab_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

// The STACK_OF(X509) accessors are macros too.
static inline int keychainlab_sk_X509_num(const STACK_OF(X509) *stack) {
    return sk_X509_num(stack);
}

static inline X509 *keychainlab_sk_X509_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

static inline STACK_OF(X509) *keychainlab_sk_X509_new_null(void) {
    return sk_X509_new_null();
}

static inline int keychainlab_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}

static inline void keychainlab_sk_X509_pop_free(STACK_OF(X509) *stack) {
    sk_X509_pop_free(stack, X509_free);
}

static inline void keychainlab_sk_X509_free(STACK_OF(X509) *stack) {
    sk_X509_free(stack);
}

#endif
