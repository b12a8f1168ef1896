/*
 * pack_catalog.c - build-time tool: validate data/catalog.json and write
 * the packed form the build embeds as ecf_embedded_catalog_packed.
 *
 *   pack_catalog IN.json OUT.packed
 *
 * The JSON goes through ecf_catalog_load_file, the loader every run would
 * use, so a bad catalog fails the build with the loader's own message
 * ("pack_catalog: catalog.json: instances[12].vcpu: ..."). The blob is
 * loaded back before it is written, so a packer/loader mismatch also fails
 * the build rather than the first run. Output goes to OUT.tmp and is
 * renamed, so an interrupted build never leaves a half-written blob that
 * make would consider up to date.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "pack_write.h"

int main(int argc, char **argv)
{
    ecf_catalog *cat = NULL, *back = NULL;
    ecf_err err;
    void *blob = NULL;
    size_t len = 0;
    int status = 1;

    if (argc != 3) {
        fprintf(stderr, "usage: pack_catalog IN.json OUT.packed\n");
        return 2;
    }
    if (ecf_catalog_load_file(&cat, argv[1], &err) != 0 ||
        ecf_catalog_pack(&blob, &len, cat, &err) != 0 ||
        ecf_catalog_load_packed(&back, blob, len, "catalog.packed", &err) !=
            0) {
        fprintf(stderr, "pack_catalog: %s\n", err.msg);
        goto out;
    }
    if (ecf_catalog_count(back) != ecf_catalog_count(cat)) {
        fprintf(stderr, "pack_catalog: round trip lost instances\n");
        goto out;
    }
    if (ecf_tool_write_file("pack_catalog", argv[2], blob, len) != 0)
        goto out;
    status = 0;
out:
    ecf_catalog_free(back);
    ecf_catalog_free(cat);
    free(blob);
    return status;
}
