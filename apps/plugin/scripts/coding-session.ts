// A scripted 30-turn coding session and the memories a person working on that project would have
// written before it (decisions, commands, pitfalls, preferences), in the diary format on disk. Used
// by bench-tokens.ts to measure what recall injects per user turn. Some turns ask about something
// a memory holds, most are ordinary coding chat that no memory answers.

const diary = (time: string, title: string, summary: string, body: string, tags: string[]): string =>
  `[${time}] ${title}\n\n> ${summary}\n\n${body}\n\nTag: ${tags.join(', ')}\n`;

export interface CodingMemory {
  date: string;
  title: string;
  text: string;
}

const m = (date: string, time: string, title: string, summary: string, body: string, tags: string[]): CodingMemory => ({ date, title, text: diary(time, title, summary, body, tags) });

export const CODING_MEMORIES: CodingMemory[] = [
  m('2026-10-02', '10:12', 'ledger-api 本地数据库端口改为 55432', '本机 5432 被系统自带的 PostgreSQL 占用,开发库改用 docker 映射到 55432。', 'docker compose 里 postgres 服务映射 55432:5432;.env.local 的 DATABASE_URL 同步改成 postgres://dev:dev@127.0.0.1:55432/ledger。CI 不受影响,CI 用服务容器的 5432。', ['ledger-api', 'PostgreSQL', '55432', 'docker compose', 'DATABASE_URL']),
  m('2026-10-03', '15:40', 'ledger-api 迁移用 drizzle-kit,禁止手改 SQL', '表结构只通过 drizzle schema 改,再 npm run db:generate 生成迁移;手写的 SQL 会和快照不一致。', '上次手改 0007 迁移导致 snapshot 漂移,db:generate 生成了重复的 ALTER。规则:改 schema.ts → npm run db:generate → 检查生成的 SQL → 提交。', ['ledger-api', 'drizzle-kit', '数据库迁移', 'db:generate']),
  m('2026-10-05', '11:05', '金额一律用整数分存储', '金额字段用 bigint 存分,不用 numeric/float;展示层再除以 100。', '浮点在汇总报表里出现过 0.01 的误差。API 入参是字符串"12.34",在边界转换成 1234。', ['ledger-api', '金额', 'bigint', '精度']),
  m('2026-10-06', '09:30', 'vitest 并发导致测试库死锁', '集成测试共用一个库时,vitest 默认并发会死锁;集成测试改为 --pool=forks --poolOptions.forks.singleFork。', '单元测试仍并发。集成测试每个文件开事务、结束回滚。', ['ledger-api', 'vitest', '死锁', '集成测试', 'singleFork']),
  m('2026-10-08', '16:20', '用户偏好:提交信息用中文,祈使句', '用户要求 commit message 用中文、祈使句、首行不超过 50 字,正文写为什么。', '例如「修复对账任务重复入账」,不要写 "fix bug"。', ['提交信息', 'commit message', '偏好']),
  m('2026-10-09', '14:02', '对账任务 reconcile 每天 02:30 运行', '对账 cron 是 30 2 * * *,时区 Asia/Shanghai;跑之前先锁 advisory lock 42。', '两个实例同时跑会重复入账,所以用 pg_advisory_lock(42)。日志在 logs/reconcile-*.log。', ['ledger-api', '对账', 'reconcile', 'cron', 'advisory lock']),
  m('2026-10-11', '10:45', 'Fastify 升级到 5 之后的坑', 'Fastify 5 要求 schema 里显式写 type: object,reply.sent 被移除,改用 reply.raw.writableEnded。', '升级还顺带把 @fastify/cors 升到 10。所有路由 schema 补齐了 type。', ['ledger-api', 'Fastify 5', '升级', 'reply.sent']),
  m('2026-10-12', '17:30', 'API 错误码约定', '错误响应统一 { code, message },code 用 kebab-case,如 account-not-found;HTTP 状态码和 code 一一对应。', '不要在 message 里放内部堆栈。新错误码要写进 docs/errors.md。', ['ledger-api', '错误码', 'API 约定', 'docs/errors.md']),
  m('2026-10-14', '13:15', '本地起服务的命令', 'npm run dev 起 API(端口 3100),npm run worker 起队列消费者;两个都要 .env.local。', '3100 是因为 3000 被前端 next dev 占了。', ['ledger-api', 'npm run dev', '3100', 'worker']),
  m('2026-10-15', '20:10', '队列从 bull 换到 pg-boss', '为了少一个 Redis 依赖,任务队列换成 pg-boss,表在 pgboss schema 下。', '重试策略:retryLimit 5,retryBackoff true。死信看 pgboss.archive。', ['ledger-api', 'pg-boss', '队列', 'Redis']),
  m('2026-10-18', '11:40', 'OpenAPI 文档由 zod 生成', '接口文档用 zod-to-openapi 从路由的 zod schema 生成,npm run openapi 输出到 openapi.json。', '不要手改 openapi.json,CI 会比对生成结果。', ['ledger-api', 'OpenAPI', 'zod', 'npm run openapi']),
  m('2026-10-20', '15:55', '生产部署走 GitHub Actions + fly.io', '合并到 main 自动部署到 fly.io 的 ledger-api-prod,迁移在 release_command 里跑。', '回滚用 fly releases 找上一版 image 再 fly deploy --image。', ['ledger-api', '部署', 'fly.io', 'release_command', '回滚']),
  m('2026-10-22', '10:20', '日志用 pino,禁止 console.log', '服务端一律用 pino logger,生产 level=info;console.log 会被 eslint 规则 no-console 拦下。', '请求日志里要脱敏 authorization 头。', ['ledger-api', 'pino', '日志', 'no-console', '脱敏']),
  m('2026-10-25', '18:05', '账户余额用物化视图 account_balances', '余额查询走物化视图 account_balances,每次入账后 REFRESH MATERIALIZED VIEW CONCURRENTLY。', 'CONCURRENTLY 需要唯一索引,索引在 account_id 上。', ['ledger-api', '物化视图', 'account_balances', '余额']),
  m('2026-10-28', '09:50', '家里的猫三月体检', '猫每年三月体检,上次体重 4.2 公斤。', '医生建议控制零食。', ['猫', '体检']),
];

export interface SessionStep {
  user: string;
  reply: string;
}

export const CODING_SESSION: SessionStep[] = [
  { user: '今天继续做 ledger-api,先帮我把本地服务跑起来', reply: '先确认 .env.local,然后 npm run dev。' },
  { user: '连不上数据库,报 ECONNREFUSED 127.0.0.1:5432', reply: '看一下 DATABASE_URL 的端口。' },
  { user: '好了,现在加一个 transfers 表,字段 from_account、to_account、amount', reply: '我来改 schema.ts。' },
  { user: 'amount 用什么类型', reply: '按约定用 bigint 存分。' },
  { user: '生成迁移', reply: '运行 npm run db:generate。' },
  { user: '帮我看下这段 TypeScript 报错:Type string is not assignable to type number', reply: '第 12 行把字符串传给了 number 参数。' },
  { user: '写一个 POST /transfers 的路由', reply: '路由已写好,带 zod 校验。' },
  { user: '账户不存在时返回什么', reply: '返回 404 和 account-not-found。' },
  { user: '把这个函数改成 async/await 的写法', reply: '已改写。' },
  { user: '补一个集成测试', reply: '测试已加。' },
  { user: '集成测试卡住不动了', reply: '可能是并发导致的死锁。' },
  { user: '现在全部通过了,帮我提交', reply: '提交信息:新增转账接口。' },
  { user: '顺便解释一下 Promise.allSettled 和 Promise.all 的区别', reply: 'allSettled 不会因为一个失败而整体失败。' },
  { user: '转账后余额没更新', reply: '需要刷新物化视图。' },
  { user: '给 transfers 加一个 created_at 索引', reply: '索引已加到 schema。' },
  { user: '文档要更新吗', reply: '运行 npm run openapi 重新生成。' },
  { user: '这个正则怎么匹配中文字符', reply: '用 \\p{Script=Han} 加 u 标志。' },
  { user: '加一个异步任务:转账成功后发通知', reply: '用 pg-boss 发一个任务。' },
  { user: '任务失败会重试几次', reply: '按现有配置重试。' },
  { user: '日志里打印一下任务 id', reply: '用 logger.info。' },
  { user: '为什么 eslint 报 no-console', reply: '改用 pino。' },
  { user: '把 utils/date.ts 里重复的代码抽一个函数', reply: '已抽出 formatDay。' },
  { user: '对账任务会不会和转账冲突', reply: '对账前会拿 advisory lock。' },
  { user: '帮我 review 一下这个 diff', reply: '两处建议:变量命名和错误处理。' },
  { user: 'Fastify 的 reply.sent 没了用什么代替', reply: '用 reply.raw.writableEnded。' },
  { user: '写一下 README 里的接口说明', reply: '已补充。' },
  { user: '怎么部署到生产', reply: '合并到 main 即自动部署。' },
  { user: '如果部署出问题怎么回滚', reply: '找上一版 image 重新部署。' },
  { user: '再跑一遍全部测试', reply: '全部通过。' },
  { user: '今天就到这,总结一下做了什么', reply: '新增转账表、接口、测试和通知任务。' },
];
