// Stage 1 — tokenize: the query's tokens (jieba or 1+2-grams, plus alias group members), each rated
// distinctive or not by corpus IDF, and the general-language weight of each word (jieba's table for
// Chinese, the English table for Latin words: background-idf.ts languageIdfTable), and the query's
// language, which the fuse and gate stages read. Moves no candidates.
import { detectLanguage } from '../../text/language.ts';
import { languageIdfTable, UNKNOWN_WORD_IDF } from '../background-idf.ts';
import { queryFacts } from '../explain.ts';
import type { RecallStage } from '../run.ts';
import { analyseQuery, queryDeps, queryInformation, queryWeights } from '../scoring.ts';

export const tokenize: RecallStage = {
  name: 'tokenize',
  run(candidates, run) {
    const { deps, cfg } = run;
    const { tokens, distinctive, idfAvailable, minIdf } = analyseQuery(run.query, queryDeps(deps), cfg);
    const weights = queryWeights(tokens, languageIdfTable(), UNKNOWN_WORD_IDF, Math.log(1 + (Math.max(1, deps.lexical.size) - 0.5) / 1.5));
    const { information, words: informationWords, talkWords } = queryInformation(weights, run.options.typedAs === 'search');
    const aliasTokens = new Set(tokens.filter((x) => x.fromAlias).map((x) => x.token));
    run.analysis = { tokens, distinctive, idfAvailable, minIdf, weights, information, informationWords, talkWords, aliasTokens, language: detectLanguage(run.query) };
    return {
      candidates,
      record: {
        kept: candidates.length,
        dropped: 0,
        listed: false,
        explain: {
          query: queryFacts({ distinctive, information, idfAvailable, minIdf }),
        },
      },
    };
  },
};
