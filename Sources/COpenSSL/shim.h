// OpenSSL's message digests (libcrypto's EVP interface): the checksums of finished files and of
// Metalink pieces. The same libcrypto libtorrent hashes a torrent's pieces with.
#include <openssl/evp.h>
