// The WordPiece tokenizer read from vocab.txt (semantic/bert-tokenizer.ts) gives the ids the model
// runtime's tokenizer gives, on the real model's files: the repository's own Chinese and English text, code,
// mixed scripts, control characters, special tokens written in the text, and random strings.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { installedModel, modelDirOf } from '../../src/model/install.ts';
import { loadRuntime } from '../../src/model/runtime.ts';
import { bertTokenizerOf } from '../../src/semantic/bert-tokenizer.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
const available = Boolean(source && installedModel(source));
const skip = available ? false : 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR; .ci/run installs it)';

describe('the vocab.txt tokenizer against the runtime\'s, bge-small-zh-v1.5', { skip }, () => {
  it('the same ids on every text, with and without the special tokens around them', async () => {
    const dir = modelDirOf(source as string);
    const mine = bertTokenizerOf(dir);
    assert.ok(mine, 'the model\'s tokenizer is the configuration the vocab.txt tokenizer reads');
    const runtime = await loadRuntime(null);
    runtime.env.allowRemoteModels = false;
    runtime.env.allowLocalModels = true;
    runtime.env.localModelPath = `${dirname(dir)}/`;
    const theirs = (await runtime.AutoTokenizer.from_pretrained(basename(dir), { local_files_only: true })) as unknown as { encode(t: string, o?: { add_special_tokens?: boolean }): number[] };

    const texts: string[] = [
      '',
      '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管。',
      'Alice\'s cat didn\'t eat; C++ and c# and v0.2.6 api_key.v2-beta_ ÉCOLE naïve café',
      'カタカナー한국어ひらがな和汉字 mixed中文words 𠀀𠀁 ext-B 😀 emoji',
      'tabs\tand\nnew\rlines\u00a0nbsp\u3000ideographic\u200bzero\ufeffbom\u0000nul\ufffdrepl\u0007bell',
      '[CLS] written [SEP] in the [UNK] text [MASK][PAD] and [cls] lower',
      'averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongwordthatexceedsonehundredcharacters',
      '（全角括号）【书名号】「引号」……——～！？，。；：',
      'e\u0301 combining, ﬁ ligature, Ⅻ numeral, ½ fraction, ٣٤ arabic digits',
    ];
    // Lines of the repository's docs and the plugin's Chinese tool texts: prose, tables, code, URLs.
    const repo = join(dirname(new URL(import.meta.url).pathname), '../../../..');
    const files = [...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(repo, 'docs', f)), join(repo, 'apps/plugin/src/host/tools/memory-tools.ts')];
    for (const f of files) for (const line of readFileSync(f, 'utf8').split('\n')) if (line.trim()) texts.push(line.slice(0, 800));
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const alphabet = [...'东京节点端口ーカナ한글ひら𠀀abcXYZéñ019٣Ⅻ\u0301-_.\'’+#  ,。!?😀[]CLSEPUNK\t\n\u00a0\u200b'];
    for (let i = 0; i < 2000; i++) {
      let t = '';
      const n = Math.floor(random() * 30);
      for (let k = 0; k < n; k++) t += alphabet[Math.floor(random() * alphabet.length)];
      texts.push(t);
    }
    for (const text of texts) {
      assert.deepEqual(mine.encode(text, { add_special_tokens: false }), theirs.encode(text, { add_special_tokens: false }), JSON.stringify(text));
      assert.deepEqual(mine.encode(text), theirs.encode(text), JSON.stringify(text));
    }
  });

  it('the model run through onnxruntime-node directly gives the runtime\'s vectors, bit for bit', async () => {
    const dir = modelDirOf(source as string);
    const runtime = await loadRuntime(null);
    const viaRuntime = await LocalEmbedder.load(dir, { model: 'bge-small-zh-v1.5', runtime });
    const direct = await LocalEmbedder.load(dir, { model: 'bge-small-zh-v1.5' });
    try {
      const texts = ['东京节点的端口后来改成多少了?', '数据库迁移之前的备份保留几份', 'The lighthouse keeper wrote to his sister every week.', '混合 mixed 文本 with code: api_key.v2 = 8443;', '长'.repeat(700)];
      for (const purpose of ['query', 'document'] as const) {
        for (const t of texts) assert.deepEqual(await direct.embed([t], { purpose }), await viaRuntime.embed([t], { purpose }), `${purpose}: ${t.slice(0, 20)}`);
        assert.deepEqual(await direct.embed(texts, { purpose }), await viaRuntime.embed(texts, { purpose }), `${purpose}: one batch`);
      }
      assert.equal(direct.dimensions, viaRuntime.dimensions);
    } finally {
      await direct.dispose();
      await viaRuntime.dispose();
    }
  });

  it('another tokenizer configuration is not read (the runtime\'s tokenizer is used)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-bert-config-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'vocab.txt'), '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\na\n');
      const config = { tokenizer_class: 'BertTokenizer', do_lower_case: false, strip_accents: null, tokenize_chinese_chars: true, unk_token: '[UNK]', cls_token: '[CLS]', sep_token: '[SEP]' };
      writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(config));
      assert.ok(bertTokenizerOf(dir));
      for (const other of [{ do_lower_case: true }, { tokenizer_class: 'XLMRobertaTokenizer' }, { strip_accents: true }, { tokenize_chinese_chars: false }]) {
        writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ ...config, ...other }));
        assert.equal(bertTokenizerOf(dir), null, JSON.stringify(other));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
