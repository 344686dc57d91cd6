package api

// ProductionTLSFetcherPublicKey is the real service's published TLS fetcher
// encryption key (uncompressed P-256, hex), the target of
// update_oauth2_credential's encryptedClientSecret (DESIGN.md §3). The local
// service has its own key, which a profile sets as tls_fetcher_public_key.
const ProductionTLSFetcherPublicKey = "045e899f1fcf7d12b3c8fd997a7a43bb853dd4e8d63419a8f867c70aacc1c4cf9d04848baca41f0c85ffbbd23cbf78967501cd8eca9e4a6369370a9a38f70d13c0"
