#ifndef THUMBIFY_CCRYPTO_SHIM_H
#define THUMBIFY_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/sha.h>
#endif
