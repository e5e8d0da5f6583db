/**
 * The playground's SQL dialect for Monaco: DuckDB SQL plus MindsDB statements (CREATE MODEL ...
 * PREDICT, DESCRIBE, RETRAIN, FINETUNE, USING, SHOW MODELS/PROJECTS). Plain data, no Monaco
 * import, so it can be tested and shared with autocomplete.
 */

export const LANGUAGE_ID = 'mindsql';

export const MINDSDB_KEYWORDS = [
  'MODEL', 'MODELS', 'PREDICTOR', 'PREDICTORS', 'PREDICT', 'RETRAIN', 'FINETUNE', 'DESCRIBE',
  'USING', 'PROJECT', 'PROJECTS', 'ENGINE', 'ENGINES', 'PARAMETERS', 'ML_ENGINE', 'ML_ENGINES',
  'JOB', 'JOBS', 'EVERY', 'WINDOW', 'HORIZON', 'GROUP', 'ORDER', 'SHOW', 'FULL', 'DATABASES',
  'TABLES', 'USE', 'KNOWLEDGE_BASE', 'AGENT', 'SKILL', 'TRIGGER', 'CHATBOT', 'INTEGRATION',
];

export const SQL_KEYWORDS = [
  'SELECT', 'FROM', 'WHERE', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'AS', 'ON', 'JOIN', 'INNER',
  'LEFT', 'RIGHT', 'FULL', 'OUTER', 'CROSS', 'NATURAL', 'USING', 'GROUP', 'BY', 'ORDER', 'HAVING',
  'LIMIT', 'OFFSET', 'UNION', 'ALL', 'DISTINCT', 'EXCEPT', 'INTERSECT', 'CASE', 'WHEN', 'THEN',
  'ELSE', 'END', 'INSERT', 'INTO', 'VALUES', 'UPDATE', 'SET', 'DELETE', 'CREATE', 'DROP', 'ALTER',
  'TABLE', 'VIEW', 'DATABASE', 'SCHEMA', 'INDEX', 'IF', 'EXISTS', 'REPLACE', 'WITH', 'RECURSIVE',
  'ASC', 'DESC', 'NULLS', 'FIRST', 'LAST', 'BETWEEN', 'LIKE', 'ILIKE', 'SIMILAR', 'CAST', 'TRUE',
  'FALSE', 'DEFAULT', 'PRIMARY', 'KEY', 'FOREIGN', 'REFERENCES', 'UNIQUE', 'CHECK', 'CONSTRAINT',
  'COPY', 'EXPLAIN', 'ANALYZE', 'PRAGMA', 'ATTACH', 'DETACH', 'TEMP', 'TEMPORARY', 'QUALIFY',
  'WINDOW', 'OVER', 'PARTITION', 'ROWS', 'RANGE', 'PRECEDING', 'FOLLOWING', 'UNBOUNDED', 'CURRENT',
  'ROW', 'FILTER', 'PIVOT', 'UNPIVOT', 'SAMPLE', 'RETURNING', 'CONFLICT', 'DO', 'NOTHING',
  'BEGIN', 'COMMIT', 'ROLLBACK', 'TRANSACTION', 'DESCRIBE', 'SUMMARIZE', 'TRY_CAST', 'ANY', 'SOME',
  ...MINDSDB_KEYWORDS,
].filter((k, i, a) => a.indexOf(k) === i);

export const SQL_TYPES = [
  'BIGINT', 'BOOLEAN', 'BLOB', 'DATE', 'DECIMAL', 'DOUBLE', 'FLOAT', 'HUGEINT', 'INTEGER', 'INT',
  'INTERVAL', 'REAL', 'SMALLINT', 'TIME', 'TIMESTAMP', 'TINYINT', 'UUID', 'VARCHAR', 'TEXT',
  'JSON', 'STRUCT', 'MAP', 'LIST',
];

export const SQL_FUNCTIONS = [
  'count', 'sum', 'avg', 'min', 'max', 'round', 'abs', 'coalesce', 'nullif', 'lower', 'upper',
  'length', 'substr', 'substring', 'trim', 'concat', 'replace', 'strftime', 'date_trunc',
  'date_part', 'now', 'current_date', 'range', 'generate_series', 'row_number', 'rank',
  'dense_rank', 'lag', 'lead', 'first_value', 'last_value', 'string_agg', 'list', 'array_agg',
  'median', 'quantile_cont', 'stddev', 'variance', 'corr', 'regexp_matches', 'regexp_replace',
  'read_csv', 'read_parquet', 'read_json', 'unnest', 'struct_pack', 'json_extract', 'epoch',
  'greatest', 'least', 'floor', 'ceil', 'sqrt', 'ln', 'log', 'exp', 'random', 'md5', 'hash',
];

/** Monarch tokenizer (typed loosely: the Monaco type is applied where it is registered). */
export const monarchLanguage = {
  ignoreCase: true,
  defaultToken: '',
  tokenPostfix: '.sql',
  keywords: SQL_KEYWORDS,
  typeKeywords: SQL_TYPES,
  builtinFunctions: SQL_FUNCTIONS,
  operators: ['=', '>', '<', '<=', '>=', '<>', '!=', '||', '+', '-', '*', '/', '%', '::', '->', '->>'],
  symbols: /[=><!~?:&|+\-*/^%]+/,
  tokenizer: {
    root: [
      { include: '@comments' },
      { include: '@whitespace' },
      [/\d+(\.\d+)?([eE][-+]?\d+)?/, 'number'],
      [/'/, { token: 'string', next: '@string' }],
      [/"/, { token: 'identifier.quote', next: '@dqIdent' }],
      [/`/, { token: 'identifier.quote', next: '@btIdent' }],
      [/\$\$/, { token: 'string', next: '@dollar' }],
      [/:[a-zA-Z_]\w*/, 'variable'],
      [
        /[a-zA-Z_][\w$]*/,
        {
          cases: {
            '@keywords': 'keyword',
            '@typeKeywords': 'type',
            '@builtinFunctions': 'predefined',
            '@default': 'identifier',
          },
        },
      ],
      [/[;,.]/, 'delimiter'],
      [/[()[\]{}]/, '@brackets'],
      [/@symbols/, { cases: { '@operators': 'operator', '@default': '' } }],
    ],
    whitespace: [[/\s+/, 'white']],
    comments: [
      [/--.*$/, 'comment'],
      [/\/\*/, { token: 'comment', next: '@comment' }],
    ],
    comment: [
      [/[^*/]+/, 'comment'],
      [/\*\//, { token: 'comment', next: '@pop' }],
      [/./, 'comment'],
    ],
    string: [
      [/[^']+/, 'string'],
      [/''/, 'string'],
      [/'/, { token: 'string', next: '@pop' }],
    ],
    dqIdent: [
      [/[^"]+/, 'identifier'],
      [/""/, 'identifier'],
      [/"/, { token: 'identifier.quote', next: '@pop' }],
    ],
    btIdent: [
      [/[^`]+/, 'identifier'],
      [/``/, 'identifier'],
      [/`/, { token: 'identifier.quote', next: '@pop' }],
    ],
    dollar: [
      [/[^$]+/, 'string'],
      [/\$\$/, { token: 'string', next: '@pop' }],
      [/\$/, 'string'],
    ],
  },
};

export const languageConfiguration = {
  comments: { lineComment: '--', blockComment: ['/*', '*/'] as [string, string] },
  brackets: [
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ] as [string, string][],
  autoClosingPairs: [
    { open: '(', close: ')' },
    { open: '[', close: ']' },
    { open: '{', close: '}' },
    { open: "'", close: "'", notIn: ['string', 'comment'] },
    { open: '"', close: '"', notIn: ['string', 'comment'] },
    { open: '`', close: '`', notIn: ['string', 'comment'] },
  ],
  surroundingPairs: [
    { open: '(', close: ')' },
    { open: "'", close: "'" },
    { open: '"', close: '"' },
    { open: '`', close: '`' },
  ],
};
