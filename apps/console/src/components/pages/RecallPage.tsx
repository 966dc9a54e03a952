'use client';
// Recall debug: runs the real recall pipeline and shows everything it decided — the language the query
// was read in, per-hit channel ranks and scores (as bars), matched tokens with IDF, where each query
// word's weight and rarity come from, near-duplicate groups, gate removals and the rule that silenced
// the query, stage counts, timings, and the exact text that would be injected.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import type { MessageKey } from '../../client/messages.ts';
import { useTRPC } from '../../client/trpc.tsx';
import type { RouterInputs, RouterOutputs } from '../../client/types.ts';
import { ScoreBars, TimingBar, type ScoreBar } from '../ScoreBars.tsx';
import { QueryForm, useQuerySubmission } from '../query/QueryForm.tsx';
import { ScopeBadge } from '../workspace/common.tsx';
import { Badge, Card, ErrorNote, PageHeader, inputClass } from '../ui.tsx';
import { engineText, fieldName, stageName } from '../../client/engine-text.ts';
import { groupRemovals, measuredOf, QUERY_GATES, reasonText } from '../recall/gates.ts';
import { languageText, rarityText, silencedRuleText, weightSourceText } from '../recall/explain-view.ts';
import { BulletChart } from '../recall/BulletChart.tsx';
import { channelScales, DEFAULT_SCALE_CONFIG, percent, type RecallScaleConfig } from '../recall/scores.ts';

type RecallOutput = RouterOutputs['recall']['run'];
type RecallResult = RecallOutput['result'];
type Hit = RecallResult['hits'][number];
type Submitted = RouterInputs['recall']['run'];

/** The kinds the seed names (a memory's other word is shown as written). */
const KNOWN_KINDS = new Set(['fact', 'pref', 'lesson', 'task', 'proj']);
const fmt = (n: number, digits = 3) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export function RecallPage() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const [query, setQuery] = useState('');
  const [k, setK] = useState('');
  const [only, setOnly] = useState<'' | 'lexical' | 'semantic'>('');
  const { submitted, submit, workspace, setWorkspace } = useQuerySubmission<Submitted>();

  const recall = useQuery({
    ...trpc.recall.run.queryOptions(submitted ?? { query: '-' }, { staleTime: 0, gcTime: 60_000, retry: false }),
    enabled: submitted !== null,
  });

  const run = () => submit({ query: query.trim(), ...(k ? { k: Number(k) } : {}), ...(only ? { only } : {}) }, () => void recall.refetch());

  return (
    <div>
      <PageHeader eyebrow={t('recall.eyebrow')} title={t('recall.title')} description={t('recall.desc')} />
      <div className="page-grid">
        <div className="flex min-w-0 flex-col gap-3">
          <QueryForm
            testIdPrefix="recall"
            label={t('recall.query')}
            placeholder={t('recall.queryPh')}
            runLabel={t('recall.run')}
            query={query}
            onQuery={setQuery}
            workspace={workspace}
            onWorkspace={setWorkspace}
            busy={recall.isFetching}
            onRun={run}
          >
            <label className="flex flex-[1_1_5rem] flex-col gap-1 text-xs text-muted">
              {t('recall.k')}
              <select className={inputClass} value={k} onChange={(e) => setK(e.target.value)}>
                <option value="">{t('recall.kAuto')}</option>
                {[1, 2, 3, 5, 8, 10, 15, 20].map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-[1_1_7rem] flex-col gap-1 text-xs text-muted">
              {t('recall.channel')}
              <select data-testid="recall-channel" className={inputClass} value={only} onChange={(e) => setOnly(e.target.value as typeof only)}>
                <option value="">{t('recall.channel.hybrid')}</option>
                <option value="lexical">{t('recall.channel.lexical')}</option>
                <option value="semantic">{t('recall.channel.semantic')}</option>
              </select>
            </label>
          </QueryForm>
          {recall.error ? <ErrorNote error={recall.error} /> : null}
          {recall.data ? <RecallReport data={recall.data} /> : null}
          {recall.data ? (
            <div className="@wide:hidden">
              <TimingCard result={recall.data.result} />
            </div>
          ) : null}
        </div>
        <aside className="page-aside">
          <Card title={t('recall.aside.title')}>
            <p className="text-sm text-muted">{t('recall.aside.body')}</p>
          </Card>
          {recall.data ? <TimingCard result={recall.data.result} /> : null}
        </aside>
      </div>
    </div>
  );
}

function RecallReport({ data }: { data: RecallOutput }) {
  const { t, lang } = useI18n();
  const r = data.result;
  const ex = r.explain;
  // The words as the question writes them (Redis), where the index holds another form (redi).
  const writtenOf = new Map(r.tokens.flatMap((tok) => (tok.written ? [[tok.token, tok.written] as const] : [])));
  return (
    <div className="flex flex-col gap-3" data-testid="recall-result">
      <p className="sr-only" role="status" data-testid="recall-announce">
        {t('recall.hits', { n: r.hits.length })}
      </p>
      <div className="flex flex-wrap items-center gap-1.5 text-xs">
        <Badge tone="accent">{r.tokenizer}</Badge>
        {ex.language ? (
          <span data-testid="recall-language">
            <Badge>{languageText(ex.language, t)}</Badge>
          </span>
        ) : null}
        <Badge tone={r.hits.length ? 'ok' : 'warn'}>{t('recall.hits', { n: r.hits.length })}</Badge>
        <span data-testid="recall-semantic">
          <Badge tone={ex.semantic.ran ? 'neutral' : 'warn'}>
            {ex.semantic.ran ? t('recall.semantic.ran', { n: ex.semantic.candidates }) : t('recall.semantic.skipped', { reason: engineText(ex.semantic.skipped ?? '—', lang) })}
          </Badge>
        </span>
        <Badge>{t('recall.lexical.candidates', { n: ex.lexical.candidates })}</Badge>
        <Badge>{t('recall.kChosen', { k: ex.k.chosen, reason: engineText(ex.k.reason, lang) })}</Badge>
        <Badge>
          {t('recall.maxChars', { used: ex.maxChars.used, limit: ex.maxChars.limit })}
          {ex.maxChars.truncatedItems ? t('recall.truncated', { n: ex.maxChars.truncatedItems }) : ''}
        </Badge>
        {ex.judge?.applied ? <Badge>{t('recall.judge', { dropped: ex.judge.dropped, ms: Math.round(ex.judge.ms) })}</Badge> : null}
      </div>

      {r.hits.length === 0 ? (
        <div className="rounded-xl border border-warn/40 bg-warn-soft px-4 py-3 text-sm" data-testid="recall-empty">
          <div className="font-semibold">{t('recall.noHits')}</div>
          {ex.gate.silencedBy ? (
            <div className="mt-1 flex flex-col gap-0.5" data-testid="recall-silenced" data-rule={ex.gate.silencedBy.rule}>
              <span className="font-medium">{silencedRuleText(ex.gate.silencedBy.rule, t)}</span>
              <span className="break-words text-muted">{reasonText(ex.gate.silencedBy.detail, lang)}</span>
            </div>
          ) : (
            <div className="text-muted">{t('recall.noHits.why')}</div>
          )}
        </div>
      ) : (
        <HitList hits={r.hits} semanticRan={ex.semantic.ran} />
      )}

      <Card title={t('recall.tokens')}>
        <div className="flex flex-wrap gap-1.5" data-testid="recall-tokens">
          {r.tokens.length === 0 ? <span className="text-sm text-muted">{t('common.none')}</span> : null}
          {r.tokens.map((tok) => (
            <span
              key={tok.token}
              className={`inline-flex items-baseline gap-1 rounded-md border px-1.5 py-0.5 text-xs ${tok.distinctive ? 'border-accent/50 bg-accent-soft' : 'border-line bg-sunken'}`}
              title={[tok.written ? t('recall.tokens.term', { term: tok.token }) : '', tok.distinctive ? t('recall.tokens.distinctive') : '', tok.fromAlias ? t('recall.tokens.alias') : '', tok.weight !== 1 ? t('recall.tokens.weight', { w: fmt(tok.weight, 2) }) : ''].filter(Boolean).join(' · ')}
              data-term={tok.token}
            >
              <span className="font-medium">{tok.written ?? tok.token}</span>
              <span className="font-mono text-muted">idf {fmt(tok.idf, 2)}</span>
              {tok.weight !== 1 ? <span className="font-mono text-muted">×{fmt(tok.weight, 2)}</span> : null}
              {tok.fromAlias ? <span className="text-sem">≈</span> : null}
            </span>
          ))}
        </div>
        {ex.terms?.length ? (
          <details className="mt-2" data-testid="recall-terms">
            <summary className="cursor-pointer text-xs text-muted select-none">{t('recall.terms')}</summary>
            <ul className="mt-1 flex flex-col gap-1 text-xs">
              {ex.terms.map((term) => (
                <li key={term.token} className="flex min-w-0 flex-wrap items-baseline gap-x-2" data-testid="recall-term" data-source={term.weightSource} data-talk={term.talk ? 'true' : undefined}>
                  <span className="font-medium">{writtenOf.get(term.token) ?? term.token}</span>
                  <span className="font-mono text-muted">{t('recall.terms.weight', { w: fmt(term.weight, 2) })}</span>
                  <span className="text-muted">{weightSourceText(term, t)}</span>
                  {term.rarity ? <span className="min-w-0 break-words text-muted">{rarityText(term, t)}</span> : null}
                  {term.talk ? <span className="text-warn">{t('recall.terms.talk')}</span> : null}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </Card>

      <GateCard result={r} />

      {ex.nearDuplicates?.length ? (
        <Card title={t('recall.nearDuplicates')}>
          <ul className="flex flex-col gap-1 text-xs text-muted" data-testid="recall-near-duplicates">
            {ex.nearDuplicates.map((g) => (
              <li key={g.kept} className="break-words">
                {t('recall.nearDuplicates.item', { title: g.title, n: g.folded.length })}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card title={t('recall.stages')}>
        <ol className="flex flex-col gap-1 text-sm" data-testid="recall-stages">
          {ex.stages.map((s) => (
            <li key={s.name} className="flex flex-wrap items-baseline gap-2">
              <span className="w-28 text-xs" data-stage={s.name}>
                {stageName(s.name, lang)}
              </span>
              <span className="tabular-nums">{s.kept}</span>
              {s.dropped ? <span className="text-xs text-danger tabular-nums">−{s.dropped}</span> : null}
              {s.note ? <span className="min-w-0 text-xs break-words text-muted">{engineText(s.note, lang)}</span> : null}
            </li>
          ))}
        </ol>
      </Card>

      {ex.redundant?.length ? (
        <Card title={t('recall.redundant')}>
          <ul className="flex flex-col gap-1 text-xs text-muted" data-testid="recall-redundant">
            {ex.redundant.map((m) => (
              <li key={m.chunkId} className="break-words">
                {t('recall.redundant.item', { title: m.title, n: m.sentences, by: m.coveredByTitle })}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card title={t('recall.injection')}>
        <pre data-testid="recall-injection" className="prose-raw max-h-[32rem] overflow-auto rounded-md bg-sunken p-3">
          {data.injection || t('recall.injection.empty')}
        </pre>
      </Card>
    </div>
  );
}

/** `semanticRan`: without the vector channel its bar would only ever say "not in the channel". */
function HitList({ hits, semanticRan }: { hits: Hit[]; semanticRan: boolean }) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  // The scales come from the settings (RRF k, channel weights, gate thresholds), never from the hits.
  const settings = useQuery(trpc.settings.get.queryOptions(undefined, { staleTime: 30_000 }));
  const cfg: RecallScaleConfig = settings.data?.effective.recall ?? DEFAULT_SCALE_CONFIG;
  const scales = channelScales(cfg, semanticRan);
  return (
    <ol className="flex flex-col gap-2">
      {hits.map((h, i) => {
        const lex = h.channels.lexical;
        const sem = h.channels.semantic;
        const bars: ScoreBar[] = [
          { key: 'fused', label: t('recall.fused'), value: h.score, scale: scales.fusedMax, text: t('recall.bar.fused', { score: fmt(h.score, 4), max: fmt(scales.fusedMax, 4) }), color: 'var(--accent)' },
          {
            key: 'lexical',
            label: t('recall.lexical'),
            value: lex ? h.coverage : 0,
            scale: 1,
            ...(scales.coverageThreshold !== undefined ? { threshold: scales.coverageThreshold } : {}),
            text: lex ? t('recall.bar.lexical', { rank: lex.rank, coverage: percent(h.coverage), bm25: fmt(lex.score, 2) }) : t('recall.notInChannel'),
            color: 'var(--lex)',
          },
          ...(semanticRan
            ? [
                {
                  key: 'semantic',
                  label: t('recall.semantic'),
                  value: sem ? sem.score : 0,
                  scale: 1,
                  ...(scales.semanticThreshold !== undefined ? { threshold: scales.semanticThreshold } : {}),
                  text: sem ? t('recall.bar.semantic', { rank: sem.rank, cosine: fmt(sem.score, 3) }) : t('recall.notInChannel'),
                  color: 'var(--sem)',
                },
              ]
            : []),
        ];
        return (
          <li key={h.chunkId} className="rounded-xl border border-line bg-panel px-4 py-3" data-testid="recall-hit" data-doc-id={h.docId}>
            <div className="flex items-baseline gap-2">
              <span className="font-mono text-xs text-muted">[{i + 1}]</span>
              <span className="min-w-0 flex-1 truncate font-medium">{h.title}</span>
              <span className="shrink-0 text-xs text-muted tabular-nums">{h.date}</span>
            </div>
            <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted">
              {h.scope !== 'all' ? <ScopeBadge workspace={h.workspace} scope={h.scope} /> : null}
              <Badge tone="accent">{h.category || '/'}</Badge>
              <span className="font-mono">{h.path}</span>
              <span>{t('recall.decay', { n: fmt(h.channels.decay, 3) })}</span>
              <span>{t('recall.fused')} {fmt(h.channels.fused, 4)}</span>
              {typeof h.channels.phrase === 'number' ? <span data-testid="recall-hit-phrase">{t('recall.phrase', { n: Math.round(h.channels.phrase * 100) })}</span> : null}
              {h.folded ? <span>{t('recall.folded', { n: h.folded })}</span> : null}
              {h.duplicates ? <span data-testid="recall-hit-duplicates">{t('recall.duplicates', { n: h.duplicates })}</span> : null}
              {h.kind ? (
                <span data-testid="recall-hit-kind">
                  {t('edit.kind')}:{KNOWN_KINDS.has(h.kind) ? t(`edit.kind.${h.kind as 'task'}`) : <span className="font-mono">{h.kind}</span>}
                </span>
              ) : null}
            </div>
            {h.goal ? (
              <p className="mt-1 text-xs" data-testid="recall-hit-goal">
                <span className="text-muted">{t('edit.goal')}:</span>
                {h.goal}
              </p>
            ) : null}
            <div className="mt-2">
              <ScoreBars bars={bars} testId="recall-hit-chart" />
            </div>
            {h.matched.length > 0 ? (
              <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs" data-testid="recall-hit-matched">
                <span className="text-muted">{t('recall.matched')}:</span>
                {h.matched.map((m) => (
                  <span key={m.token} className="rounded bg-sunken px-1.5 py-0.5" title={m.fields.join(', ')}>
                    {m.token} <span className="font-mono text-muted">idf {fmt(m.idf, 2)}</span>
                    {m.fields.length ? <span className="ml-1 text-muted">({m.fields.map((f) => fieldName(f, lang)).join('/')})</span> : null}
                  </span>
                ))}
              </div>
            ) : null}
            <details className="mt-2">
              <summary className="cursor-pointer text-xs text-muted select-none">{t('recall.injection')}</summary>
              <pre className="prose-raw mt-1 max-h-64 overflow-auto rounded-md bg-sunken p-2">{h.text}</pre>
            </details>
          </li>
        );
      })}
    </ol>
  );
}

type GateName = RecallResult['explain']['gate']['removals'][number]['gate'];

/** Every gate's label: a gate without one would show its engine name (the Chinese page once said "hybrid"). */
const GATE_KEYS: Record<GateName, MessageKey> = {
  hybrid: 'recall.gate.hybrid',
  'distinctive-term': 'recall.gate.distinctive-term',
  coverage: 'recall.gate.coverage',
  specificity: 'recall.gate.specificity',
  'vague-query': 'recall.gate.vague-query',
  'semantic-min': 'recall.gate.semantic-min',
  'semantic-required': 'recall.gate.semantic-required',
  judge: 'recall.gate.judge',
  'no-distinctive-query': 'recall.gate.no-distinctive-query',
};

function GateCard({ result }: { result: RecallResult }) {
  const { t, lang } = useI18n();
  const g = result.explain.gate;
  const gateName = (id: string) => (id in GATE_KEYS ? t(GATE_KEYS[id as GateName]) : id);
  const byGate = Object.entries(g.byGate).filter(([, n]) => (n ?? 0) > 0);
  const docs = groupRemovals(g.removals, lang, g.queryInformation);
  const queryGate = g.removals.find((r) => QUERY_GATES.has(r.gate));
  const queryMeasured = queryGate ? measuredOf(queryGate.gate, queryGate.detail, g.queryInformation) : null;
  return (
    <Card title={t('recall.gates')} actions={<Badge tone={g.removed ? 'warn' : 'neutral'}>{t('recall.gates.removed', { n: g.removed })}</Badge>} testId="recall-gates">
      <div className="flex flex-col gap-2 text-sm">
        {!g.idfAvailable ? <div className="text-warn">{t('recall.gates.noIdf')}</div> : null}
        {g.distinctiveTokens.length > 0 ? (
          <div className="flex flex-wrap gap-1 text-xs">
            <span className="text-muted">{t('recall.tokens.distinctive')}:</span>
            {g.distinctiveTokens.map((tok) => (
              <Badge key={tok} tone="accent">
                {tok}
              </Badge>
            ))}
          </div>
        ) : null}
        {queryGate ? (
          <div className="flex flex-col gap-1 rounded-md border border-warn/40 bg-warn-soft px-3 py-2" data-testid="recall-query-gate">
            <span className="text-sm font-medium">{reasonText(queryGate.detail, lang)}</span>
            {queryMeasured ? <BulletChart measured={queryMeasured} label={gateName(queryGate.gate)} thresholdLabel={t('recall.gate.threshold')} /> : null}
          </div>
        ) : null}
        {byGate.length > 0 ? (
          <div className="flex flex-wrap gap-1 text-xs">
            {byGate.map(([gate, n]) => (
              <Badge key={gate} tone="warn">
                {gateName(gate)} {n}
              </Badge>
            ))}
          </div>
        ) : null}
        {g.namedByQuery?.length ? (
          <ul className="flex flex-col gap-1 text-xs text-muted" data-testid="recall-gate-named">
            {g.namedByQuery.map((n) => (
              <li key={n.chunkId} className="break-words">
                {t('recall.gate.named', { title: n.title, p: n.p.toFixed(2), bar: n.bar })}
              </li>
            ))}
          </ul>
        ) : null}
        {g.removals.length === 0 ? <div className="text-muted">{t('recall.gates.none')}</div> : null}
        {docs.length > 0 ? (
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line" data-testid="recall-gate-docs">
            {docs.slice(0, 30).map((d) => (
              <li key={d.docId} className="flex flex-col gap-1.5 px-3 py-2" data-testid="recall-gate-doc" data-doc-id={d.docId}>
                <span className="min-w-0 truncate text-sm font-medium">{d.title}</span>
                {d.findings.map((f) => (
                  <div key={`${f.gate}-${f.reason}`} className="flex min-w-0 flex-col gap-1 text-xs" data-gate={f.gate}>
                    <span className="flex flex-wrap items-baseline gap-x-2">
                      <Badge tone="warn">{gateName(f.gate)}</Badge>
                      {f.chunks > 1 ? <span className="text-muted">{t('recall.gate.chunks', { n: f.chunks })}</span> : null}
                      {!f.measured ? <span className="min-w-0 break-words text-muted">{f.reason}</span> : null}
                    </span>
                    {f.measured ? <BulletChart measured={f.measured} label={gateName(f.gate)} thresholdLabel={t('recall.gate.threshold')} /> : null}
                  </div>
                ))}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}

function TimingCard({ result }: { result: RecallResult }) {
  const { t } = useI18n();
  const tm = result.timing;
  const parts = useMemo(
    () =>
      (
        [
          ['tokenize', tm.tokenizeMs, 'var(--muted)'],
          ['lexical', tm.lexicalMs, 'var(--lex)'],
          ['semantic', tm.semanticMs, 'var(--sem)'],
          ['fuse', tm.fuseMs, 'var(--accent)'],
          ['gate', tm.gateMs, 'var(--warn)'],
          ['judge', tm.judgeMs, 'var(--danger)'],
        ] as const
      ).map(([key, ms, color]) => ({ key, ms, color, label: t(`recall.timing.${key}`) })),
    [tm, t],
  );
  return (
    <Card title={t('recall.timing')} testId="recall-timing">
      <TimingBar parts={parts} total={tm.totalMs} />
      <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs">
        {parts.map((p) => (
          <div key={p.key} className="flex justify-between gap-2">
            <dt className="flex items-center gap-1.5 text-muted">
              <span className="inline-block h-2 w-2 rounded-sm" style={{ background: p.color }} />
              {p.label}
            </dt>
            <dd className="tabular-nums">{p.ms.toFixed(1)}</dd>
          </div>
        ))}
        <div className="col-span-2 mt-1 flex justify-between border-t border-line pt-1 font-medium">
          <dt>{t('recall.timing.total')}</dt>
          <dd className="tabular-nums">{t('common.ms', { n: tm.totalMs.toFixed(1) })}</dd>
        </div>
      </dl>
    </Card>
  );
}
