// Renders every chat template of shared/chat-templates with the peer renderer (@huggingface/jinja)
// on the conversations of infx-client's test resources, and writes one golden JSON per template.
// infx's ChatTemplatePeerGoldenTest compares its own rendering with these byte for byte.
//
//   cd benchmarks/chat-templates && npm ci && node render-goldens.mjs [TEMPLATES_DIR] [OUT_DIR]
//
// Deterministic: strftime_now sees the fixed instant of conversations.json ("now", UTC).
import { Template } from "@huggingface/jinja";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const res = path.resolve(here, "../../infx-client/src/test/resources/chat-templates");
const templatesDir = path.resolve(process.argv[2] ?? path.join(here, "../../../shared/chat-templates"));
const outDir = path.resolve(process.argv[3] ?? path.join(res, "goldens", "peer"));
const spec = JSON.parse(fs.readFileSync(path.join(res, "conversations.json"), "utf8"));
const peerVersion = JSON.parse(fs.readFileSync(
  path.join(here, "node_modules/@huggingface/jinja/package.json"), "utf8")).version;

// A frozen clock: the peer's strftime_now calls `new Date()`.
process.env.TZ = "UTC";
const fixed = Date.parse(spec.context.now);
const RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...a) { if (a.length === 0) { super(fixed); } else { super(...a); } }
  static now() { return fixed; }
};

fs.mkdirSync(outDir, { recursive: true });
const names = fs.readdirSync(templatesDir).filter((f) => f.endsWith(".jinja")).sort();
let ok = 0, failed = 0;
for (const file of names) {
  const source = fs.readFileSync(path.join(templatesDir, file), "utf8");
  const golden = {
    template: file,
    template_sha256: createHash("sha256").update(source, "utf8").digest("hex"),
    peer: `@huggingface/jinja ${peerVersion}`,
    cases: {},
  };
  let template = null;
  try {
    template = new Template(source);
  } catch (e) {
    golden.parse_error = String(e.message ?? e);
  }
  for (const [conv, messages] of Object.entries(spec.conversations)) {
    for (const agp of spec.add_generation_prompt) {
      const key = `${conv}/${agp ? "gen" : "nogen"}`;
      if (!template) { golden.cases[key] = { error: golden.parse_error }; failed++; continue; }
      try {
        const out = template.render({
          // What transformers' apply_chat_template passes without tools or documents.
          messages: structuredClone(messages),
          tools: null,
          documents: null,
          add_generation_prompt: agp,
          bos_token: spec.context.bos_token,
          eos_token: spec.context.eos_token,
        });
        golden.cases[key] = { output: out };
        ok++;
      } catch (e) {
        golden.cases[key] = { error: String(e.message ?? e) };
        failed++;
      }
    }
  }
  fs.writeFileSync(path.join(outDir, file.replace(/\.jinja$/, ".json")),
    JSON.stringify(golden, null, 2) + "\n");
}
console.log(`${names.length} templates: ${ok} renderings, ${failed} peer errors -> ${outDir}`);
