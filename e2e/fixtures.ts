// A small, varied diary corpus for the browser tests: enough unrelated documents that the words of
// the memory a test creates are rare (high IDF) and so pass the distinctive-term gate.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Entry {
  folder: string;
  date: string;
  time: string;
  title: string;
  summary: string;
  body: string;
  tags: string[];
}

const ENTRIES: Entry[] = [
  { folder: '工作', date: '2026-09-02', time: '09:40', title: '周会纪要', summary: '本周排期与风险。', body: '讨论了下个版本的排期，前端重构推迟一周，测试环境需要扩容。', tags: ['周会', '排期', '风险'] },
  { folder: '工作', date: '2026-09-10', time: '14:05', title: '数据库迁移演练', summary: '在预发环境演练了表结构迁移。', body: '迁移脚本在大表上耗时过长，改成分批执行，每批一万行，总耗时降到四分钟。', tags: ['数据库', '迁移', '演练'] },
  { folder: '工作', date: '2026-09-18', time: '20:30', title: '日志采集链路排查', summary: '采集代理丢日志的原因。', body: '代理的缓冲区满了以后直接丢弃，调大缓冲并加了背压，丢失率归零。', tags: ['日志', '采集', '背压'] },
  { folder: '生活', date: '2026-08-21', time: '19:10', title: '周末去爬山', summary: '天气很好，路线偏难。', body: '走了十二公里，山顶风很大，下山时膝盖有点疼，下次带护膝。', tags: ['爬山', '周末', '户外'] },
  { folder: '生活', date: '2026-08-29', time: '12:00', title: '学做红烧肉', summary: '第一次做红烧肉。', body: '糖色炒得有点过，偏苦；下次小火慢炒，出现琥珀色就下肉。', tags: ['做饭', '红烧肉'] },
  { folder: '生活', date: '2026-09-05', time: '22:15', title: '读完一本小说', summary: '关于航海的长篇小说。', body: '结尾很仓促，但前半部分对风暴的描写非常好，值得再读一遍。', tags: ['阅读', '小说', '航海'] },
  { folder: '学习', date: '2026-09-12', time: '21:00', title: '复习线性代数', summary: '特征值与特征向量。', body: '用对称矩阵的谱分解理解了主成分分析，手推了一遍二维的例子。', tags: ['线性代数', '特征值', '数学'] },
  { folder: '学习', date: '2026-09-20', time: '10:30', title: '练习日语听力', summary: '新闻听力训练。', body: '语速快的时候还是跟不上，先从慢速新闻开始，每天二十分钟。', tags: ['日语', '听力'] },
  { folder: '学习', date: '2026-09-25', time: '16:45', title: '学习正则表达式', summary: '零宽断言的用法。', body: '前瞻和后顾断言可以在不消耗字符的情况下做条件匹配，写了几个例子。', tags: ['正则', '编程'] },
  { folder: '', date: '2026-10-01', time: '08:00', title: '假期计划', summary: '国庆七天怎么安排。', body: '前三天回家看父母，后面两天整理书房，最后两天休息。', tags: ['假期', '计划'] },
  { folder: '', date: '2026-10-06', time: '18:20', title: '整理书房', summary: '书架重新分类。', body: '按主题把书分成技术、文学、历史三类，旧杂志送去回收站。', tags: ['整理', '书房'] },
  { folder: '工作', date: '2026-10-12', time: '11:20', title: '接口限流方案', summary: '令牌桶还是漏桶。', body: '最终选了令牌桶，突发流量可以借用桶里的余量，配置每秒两百个请求。', tags: ['限流', '令牌桶', '接口'] },
  { folder: '工作', date: '2026-10-15', time: '17:05', title: '代码评审习惯', summary: '评审时先看测试。', body: '先读测试再读实现，能更快看出改动的意图；超过四百行的改动要求拆分。', tags: ['代码评审', '习惯'] },
  { folder: '生活', date: '2026-10-18', time: '07:30', title: '开始晨跑', summary: '每天五公里。', body: '第一周配速偏慢，心率控制在一百五以内，跑完拉伸十分钟。', tags: ['跑步', '晨跑', '健康'] },
  { folder: '生活', date: '2026-10-20', time: '20:00', title: '阳台种番茄', summary: '番茄苗长了虫。', body: '叶子背面有蚜虫，用稀释的肥皂水喷了两次，情况好转。', tags: ['种植', '番茄', '阳台'] },
  { folder: '学习', date: '2026-10-22', time: '21:40', title: '读分布式系统论文', summary: '关于共识算法。', body: '对比了两种共识算法的领导者选举过程，画了状态机转换图。', tags: ['分布式', '共识', '论文'] },
  { folder: '学习', date: '2026-10-25', time: '15:15', title: '练习吉他和弦', summary: '大横按还是按不响。', body: '食指的位置往品丝靠一点，手腕放低，每天练十五分钟。', tags: ['吉他', '和弦', '音乐'] },
  { folder: '', date: '2026-10-09', time: '23:10', title: '失眠的一晚', summary: '咖啡喝多了。', body: '下午四点以后不要再喝咖啡，睡前半小时不看手机。', tags: ['睡眠', '咖啡'] },
  // A developer's week: different subjects told with the same habits (修复, 在群里, 周四晚上) and
  // numbers everywhere — what made every write flag "可能冲突" (#16). One fact with a value to contradict.
  { folder: '工作', date: '2026-10-26', time: '21:10', title: '修复登录页样式错位', summary: '登录页在苹果浏览器上错位。', body: '今天修复了登录页在苹果浏览器上错位的问题，在群里同步了进度，周四晚上 9 点发布。', tags: ['前端', '登录页'] },
  { folder: '工作', date: '2026-10-27', time: '22:00', title: '支付回调重复扣款', summary: '重试没有幂等键。', body: '修复了支付回调重复扣款的问题，原因是重试没有幂等键，在群里通知了财务，周四晚上 10 点上线，影响 37 笔订单。', tags: ['支付', '幂等'] },
  { folder: '工作', date: '2026-10-28', time: '20:40', title: '日志代理丢包修复', summary: '缓冲区太小。', body: '修复了日志代理丢包：缓冲区从 8 MB 调到 64 MB，在群里说了一下，周四晚上一起发。', tags: ['日志', '缓冲区'] },
  { folder: '工作', date: '2026-10-29', time: '10:15', title: '订单服务连接池上限', summary: '连接池上限与排队。', body: '订单服务的数据库连接池上限设为 20，超过的请求排队等待，排队超时 5 秒。', tags: ['连接池', '订单服务'] },
];

export function seedDiary(diaryDir: string): number {
  for (const e of ENTRIES) {
    const dir = join(diaryDir, e.folder);
    mkdirSync(dir, { recursive: true });
    const text = `[${e.time}] ${e.title}\n\n> ${e.summary}\n\n${e.body}\n\nTag: ${e.tags.join('，')}\n`;
    writeFileSync(join(dir, `${e.date}-${e.title}.txt`), text);
  }
  return ENTRIES.length;
}
