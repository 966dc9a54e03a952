// Neutral reference texts, written for this project: embedded once (lazily, only while the corpus
// is too small to sample) so that even a corpus of a few memories has a cosine background for the
// hybrid gate. Mixed topics and both languages, none about anything a memory is likely to hold.
export const BACKGROUND_TEXTS: string[] = [
  '今天的天气不错，下午可能会有小雨。',
  '这家面包店的早餐很受附近居民欢迎。',
  '地铁二号线周末会延长运营时间。',
  '他在图书馆借了一本关于航海历史的书。',
  '秋天的公园里落满了金黄色的银杏叶。',
  '这部电影讲述了一个小镇少年的成长故事。',
  '超市的水果区新到了一批进口橙子。',
  '足球比赛因为大雾推迟到了第二天。',
  '她每周三晚上去社区中心练习书法。',
  '新开的博物馆展出了许多古代陶器。',
  '这条河流经三个省份，最后汇入大海。',
  '孩子们在操场上放风筝，玩得很开心。',
  'The bakery on the corner sells fresh bread every morning.',
  'A light rain is expected in the late afternoon.',
  'The museum opened a new exhibition of ancient pottery.',
  'The river flows through three provinces before reaching the sea.',
  'Children were flying kites in the school playground.',
  'The football match was postponed because of thick fog.',
  'She practises calligraphy at the community centre on Wednesdays.',
  'The orchestra will perform a program of Baroque music.',
  'Autumn leaves covered the paths of the old park.',
  'The train timetable changes at the start of December.',
  'He borrowed a book about the history of sailing.',
  'The market had a new shipment of oranges this week.',
];
