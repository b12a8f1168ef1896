/*
 * pack_zoo.c - build-time tool: validate data/models.json and write the
 * packed form the build embeds as ecf_embedded_models_packed
 * (src/data/zoo_packed.c).
 *
 *   pack_zoo IN.json OUT.packed
 *
 * The JSON goes through ecf_zoo_load_buffer, the strict loader (the whole
 * document checked, every field validated), so a bad zoo fails the build
 * with the loader's own message. The blob is loaded back and compared
 * model by model before it is written; it goes to OUT.tmp and is renamed,
 * so an interrupted build never leaves a half-written blob.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "pack_write.h"
#include "ec2fit/zoo.h"

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (!f) {
        perror(path);
        return NULL;
    }
    do {
        if (n == cap) {
            char *nb;
            cap = cap ? cap * 2 : 65536;
            if (cap > ECF_ZOO_MAX_BYTES + 1 || !(nb = realloc(buf, cap))) {
                fprintf(stderr, "pack_zoo: %s: too large\n", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        perror(path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    ecf_zoo *zoo = NULL, *back = NULL;
    ecf_err err = ECF_ERR_INIT;
    void *blob = NULL;
    char *json = NULL;
    size_t len = 0, jlen = 0, i;
    int status = 1;

    if (argc != 3) {
        fprintf(stderr, "usage: pack_zoo IN.json OUT.packed\n");
        return 2;
    }
    if (!(json = read_all(argv[1], &jlen)))
        return 1;
    if (ecf_zoo_load_buffer(&zoo, json, jlen, "models.json", &err) != 0 ||
        ecf_zoo_pack(&blob, &len, zoo, &err) != 0 ||
        ecf_zoo_load_packed(&back, blob, len, "models.packed", &err) != 0) {
        fprintf(stderr, "pack_zoo: %s\n", err.msg);
        goto out;
    }
    if (ecf_zoo_count(back) != ecf_zoo_count(zoo)) {
        fprintf(stderr, "pack_zoo: round trip lost models\n");
        goto out;
    }
    for (i = 0; i < ecf_zoo_count(zoo); i++) {
        const ecf_model *m = ecf_zoo_at(zoo, i);
        if (memcmp(m, ecf_zoo_at(back, i), sizeof(*m)) != 0 ||
            ecf_zoo_find(back, m->name) != ecf_zoo_at(back, i)) {
            fprintf(stderr, "pack_zoo: round trip changed %s\n", m->name);
            goto out;
        }
    }
    if (ecf_tool_write_file("pack_zoo", argv[2], blob, len) != 0)
        goto out;
    status = 0;
out:
    ecf_zoo_free(back);
    ecf_zoo_free(zoo);
    free(blob);
    free(json);
    return status;
}
