/*
 * Lists the deflate block boundaries of a gzip file, one per line: "<in> <bits> <out>".
 * A block starts `bits` bits before compressed byte `in` (0 = on the byte) and produces
 * uncompressed byte `out` first. Pin-time only (see pin-runtime.ts): the installer cannot
 * find these itself without downloading everything before them.
 * Build: cc -O2 -o /tmp/deflate-blocks deflate-blocks.c -lz
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define CHUNK 65536

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: deflate-blocks FILE.tgz\n"); return 2; }
  FILE *in = fopen(argv[1], "rb");
  if (!in) { perror(argv[1]); return 1; }
  static unsigned char input[CHUNK], window[32768];
  z_stream strm;
  memset(&strm, 0, sizeof strm);
  if (inflateInit2(&strm, 47) != Z_OK) return 1;
  long long totin = 0, totout = 0;
  int ret = Z_OK;
  do {
    strm.avail_in = fread(input, 1, CHUNK, in);
    if (strm.avail_in == 0) break;
    strm.next_in = input;
    do {
      if (strm.avail_out == 0) { strm.avail_out = sizeof window; strm.next_out = window; }
      totin += strm.avail_in;
      totout += strm.avail_out;
      ret = inflate(&strm, Z_BLOCK);
      totin -= strm.avail_in;
      totout -= strm.avail_out;
      if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR || ret == Z_MEM_ERROR) { fprintf(stderr, "inflate error %d\n", ret); return 1; }
      if (ret == Z_STREAM_END) break;
      /* End of a block header-less boundary: bit 7 set, not the last block (bit 6 clear). */
      if ((strm.data_type & 128) && !(strm.data_type & 64)) printf("%lld %d %lld\n", totin, strm.data_type & 7, totout);
    } while (strm.avail_in != 0);
  } while (ret != Z_STREAM_END);
  inflateEnd(&strm);
  fclose(in);
  return ret == Z_STREAM_END ? 0 : 1;
}
