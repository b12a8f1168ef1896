/* data_file.h - reads a shipped data/ file (the one the build embeds) into
 * a heap string for the unit tests that edit or re-check it
 * (test_embedded_data, test_engines, test_light). Included by one .c file
 * each, so the function is static. */
#ifndef EC2FIT_TESTS_DATA_FILE_H
#define EC2FIT_TESTS_DATA_FILE_H

#include <stdio.h>
#include <stdlib.h>

/* data/<file> NUL-terminated; its length in *len when len is not NULL.
 * The caller frees it. */
static char *read_data(const char *file, size_t *len)
{
    char path[512];
    FILE *f;
    char *text;
    long n;
    snprintf(path, sizeof(path), "%s/../../data/%s", ECF_FIXTURES, file);
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    assert_true(n > 0);
    rewind(f);
    text = malloc((size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    if (len)
        *len = (size_t)n;
    return text;
}

#endif
