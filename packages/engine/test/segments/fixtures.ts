// A long memory shared by the segment tests.

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `关于${topic}的第${i + 1}条记录,当时讨论了很多细节,也记下了每个人的看法。`).join('');

/** A long imported session: five sections, the answer deep inside the fourth. */
export const LONG_MEMORY = [
  '[21:14] 会话导入:部署事故全过程',
  '',
  '> 一次部署事故从排查到复盘的完整记录。',
  '',
  '## 背景',
  filler('背景', 30),
  '',
  '## 安装步骤',
  filler('安装', 40),
  '',
  '## 配置 nginx',
  filler('反向代理', 36),
  '',
  '## 故障排查',
  filler('排查', 18),
  '最后发现会话日志是多帧的 zstd 文件,Node 的解压器只吃单帧,所以按 magic 切帧再逐帧解压;部署目录 /srv/app/deploy 下的旧文件也一并清掉。',
  filler('排查收尾', 8),
  '',
  '## 复盘',
  filler('复盘', 30),
  '',
  'Tag: 部署, 事故',
].join('\n');
