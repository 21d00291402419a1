/* --verify's digests against their published values (RFC 1321's and FIPS 180's examples,
 * the CRC catalogue's check values over "123456789", xxhsum -H0's), at the lengths where
 * the padding takes one block or two, and against a bit-at-a-time CRC reference. */
#include "disk/digest.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

static const char *hex(const uint8_t *d, size_t n)
{
	static char s[2 * DIGEST_MAX + 1];
	for (size_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", d[i]);
	return s;
}

static const char *hash_hex(int kind, const char *msg, size_t n)
{
	uint8_t d[DIGEST_MAX];
	digest(kind, msg, n, d);
	return hex(d, digest_len(kind));
}

#define HASH(kind, msg, want) \
	CHECK(!strcmp(hash_hex(kind, msg, strlen(msg)), want), "%s(\"%.20s\"): %s", #kind, msg, \
	      hash_hex(kind, msg, strlen(msg)))

/* reflected CRC a bit at a time (width <= 64), or, for CRC-7, the top-aligned shift */
static uint64_t ref_reflected(uint64_t poly, uint64_t init, uint64_t xorout, const uint8_t *p, size_t n)
{
	uint64_t c = init;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? poly ^ (c >> 1) : c >> 1;
	}
	return c ^ xorout;
}

static uint8_t ref_crc7(const uint8_t *p, size_t n)
{
	unsigned c = 0;
	while (n--)
		for (int k = 7; k >= 0; k--) {
			unsigned bit = ((c >> 6) ^ (*p >> k)) & 1;
			c = ((c << 1) & 0x7f) ^ (bit ? 0x09 : 0);
			if (k == 0)
				p++;
		}
	return (uint8_t)c;
}

int main(void)
{
	static const char a1000[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	uint8_t buf[700];
	uint64_t x = 0x9e3779b9;

	HASH(DG_MD5, "", "d41d8cd98f00b204e9800998ecf8427e");
	HASH(DG_MD5, "abc", "900150983cd24fb0d6963f7d28e17f72");
	HASH(DG_MD5, "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
	     "57edf4a22be3c955ac49da2e2107b67a");
	HASH(DG_SHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d");
	HASH(DG_SHA1, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	HASH(DG_SHA256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	HASH(DG_SHA256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	HASH(DG_SHA256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	HASH(DG_SHA512, "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
			       "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
	HASH(DG_SHA512, "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
			"klmnopqrlmnopqrsmnopqrstnopqrstu",
	     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
	/* the CRC catalogue's check values: little-endian bytes of the value */
	HASH(DG_CRC32C, "123456789", "839206e3");
	HASH(DG_CRC32, "123456789", "2639f4cb");
	HASH(DG_CRC64, "123456789", "fa3919dfbbc95d99");
	HASH(DG_CRC16, "123456789", "3dbb");
	HASH(DG_CRC7, "123456789", "75");
	/* xxhsum -H0 */
	HASH(DG_XXHASH, "", "055dcc02");
	HASH(DG_XXHASH, "abc", "ff53d132");
	HASH(DG_XXHASH, "123456789", "67ad7b93");
	CHECK(xxh32(a1000, 100, 0) == 0x17e3108bu, "xxh32 of 100 a: %08x", xxh32(a1000, 100, 0));

	/* every tail length: padding in one block or two */
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		buf[i] = (uint8_t)(x >> 56);
	}
	for (size_t n = 0; n <= sizeof buf; n += n < 140 ? 1 : 61) {
		CHECK(crc64_xz(buf, n) == ref_reflected(0xC96C5795D7870F42ull, ~0ull, ~0ull, buf, n), "crc64 %zu", n);
		CHECK(crc16_arc(buf, n) == ref_reflected(0xA001, 0, 0, buf, n), "crc16 %zu", n);
		CHECK(crc7_mmc(buf, n) == ref_crc7(buf, n), "crc7 %zu: %02x %02x", n, crc7_mmc(buf, n), ref_crc7(buf, n));
	}
	/* a million a (FIPS 180's long example), a block at a time through the one-shot call */
	{
		static char m[1000000];
		uint8_t d[64];
		memset(m, 'a', sizeof m);
		sha256(m, sizeof m, d);
		CHECK(!strcmp(hex(d, 32), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
		      "sha256 of a million a: %s", hex(d, 32));
		sha1(m, sizeof m, d);
		CHECK(!strcmp(hex(d, 20), "34aa973cd4c4daa4f61eeb2bdbad27316534016f"), "sha1 of a million a: %s",
		      hex(d, 20));
		md5(m, sizeof m, d);
		CHECK(!strcmp(hex(d, 16), "7707d6ae4e027c70eea2a935c2296f21"), "md5 of a million a: %s", hex(d, 16));
		sha512(m, sizeof m, d);
		CHECK(!strcmp(hex(d, 64), "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
					  "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"),
		      "sha512 of a million a: %s", hex(d, 64));
	}
	/* SHA-3 (FIPS 202): empty and "abc" (its examples), 200 a (more than one block at every
	 * rate: 144, 136, 104, 72 bytes), a million a; the values Python's hashlib gives */
	{
		static const struct { int kind; const char *v[4]; } sha3v[] = {
			{ DG_SHA3_224, { "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
					 "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
					 "455e0ccfc6010738ed93a793dffd79aff36debbd1a7eb6621bd6c722",
					 "d69335b93325192e516a912e6d19a15cb51c6ed5c15243e7a7fd653c" } },
			{ DG_SHA3_256, { "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
					 "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
					 "cce34485baf2bf2aca99b94833892a4f52896d3d153f7b840cc4f9fe695f1387",
					 "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1" } },
			{ DG_SHA3_384, { "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
					 "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
					 "f97756776c1874724c94a8008f7f155553b4bf00fbf8fbeac246624ad59c258a3c0977d9f2543d7cbd75b9ac8fdc0d40",
					 "eee9e24d78c1855337983451df97c8ad9eedf256c6334f8e948d252d5e0e76847aa0774ddb90a842190d2c558b4b8340" } },
			{ DG_SHA3_512, { "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
					 "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
					 "eae6c85c6904f11075de9f9d5e1064371d000510fa3d2d79d40cf9be34892fb01859d0a0234e138bcb0ad5c84f6c0dca226a414b0c9a2897cb695f5185fe36ec",
					 "3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859ed311d0a9d5141ce9cc5c66ee689b266a8aa18ace8282a0e0db596c90b0a7b87" } },
		};
		static char m[1000000];
		const size_t len[4] = { 0, 3, 200, sizeof m };
		memset(m, 'a', sizeof m);
		for (size_t i = 0; i < sizeof sha3v / sizeof sha3v[0]; i++)
			for (int k = 0; k < 4; k++) {
				const char *got = hash_hex(sha3v[i].kind, k == 1 ? "abc" : m, len[k]);
				CHECK(!strcmp(got, sha3v[i].v[k]), "sha3-%zu of %zu bytes: %s",
				      8 * digest_len(sha3v[i].kind), len[k], got);
			}
	}
	CHECK(digest_len(0) == 0 && digest_len(DG_N) == 0 && digest_len(DG_SHA512) == 64 && digest_len(11) == 0 &&
	      digest_len(12) == 0 && digest_len(DG_SHA3_384) == 48, "digest_len");
	return unit_done();
}
