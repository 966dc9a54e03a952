// Builds a tiny BERT-shaped model directory that @huggingface/transformers loads offline:
// onnx/model.onnx (an embedding table looked up with Gather: input_ids → last_hidden_state),
// config.json, tokenizer.json (WordPiece over letters, digits and some CJK characters) and
// tokenizer_config.json. Mean pooling of per-token vectors means texts sharing tokens come out
// closer than texts that share none. No weights are downloaded.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export const TINY_CJK = '记忆向量检索日记语义召回测试中文天气晴朗下雨咖啡猫狗';

export function tinyVocab(): Record<string, number> {
  const vocab: Record<string, number> = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3 };
  const add = (t: string) => {
    if (!(t in vocab)) vocab[t] = Object.keys(vocab).length;
  };
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
    add(c);
    add(`##${c}`);
  }
  for (const c of TINY_CJK) add(c);
  return vocab;
}

/** Deterministic pseudo-random table (LCG) so every build is identical. */
function embeddingTable(rows: number, dims: number, seed: number): Float32Array {
  const t = new Float32Array(rows * dims);
  let s = seed >>> 0;
  for (let i = 0; i < t.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    t[i] = s / 2 ** 32 - 0.5;
  }
  return t;
}

export interface TinyModelOptions {
  dims?: number;
  seed?: number;
}

/** Writes the model directory `dir` (created if needed) and returns it. */
export function buildTinyModel(dir: string, opts: TinyModelOptions = {}): string {
  const dims = opts.dims ?? 16;
  const vocab = tinyVocab();
  const size = Object.keys(vocab).length;
  const table = embeddingTable(size, dims, opts.seed ?? 7);
  const T = onnx.TensorProto.DataType;
  const seqShape = { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }] };
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'engram-test',
    graph: {
      name: 'tiny-embedder',
      initializer: [{ name: 'embeddings', dims: [size, dims], dataType: T.FLOAT, rawData: new Uint8Array(table.buffer) }],
      node: [
        {
          opType: 'Gather',
          input: ['embeddings', 'input_ids'],
          output: ['last_hidden_state'],
          attribute: [{ name: 'axis', i: 0, type: onnx.AttributeProto.AttributeType.INT }],
        },
      ],
      input: [
        { name: 'input_ids', type: { tensorType: { elemType: T.INT64, shape: seqShape } } },
        { name: 'attention_mask', type: { tensorType: { elemType: T.INT64, shape: seqShape } } },
      ],
      output: [
        {
          name: 'last_hidden_state',
          type: { tensorType: { elemType: T.FLOAT, shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }, { dimValue: dims }] } } },
        },
      ],
    },
  });
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), onnx.ModelProto.encode(model).finish());
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: size }));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]' }),
  );
  const special = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [special('[PAD]', 0), special('[UNK]', 1), special('[CLS]', 2), special('[SEP]', 3)],
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [],
        special_tokens: {
          '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
          '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
        },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    }),
  );
  return dir;
}
