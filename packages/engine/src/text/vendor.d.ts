// The `stopword` package ships no types; Engram reads only its English list.
declare module 'stopword' {
  export const eng: readonly string[];
}

// wink-porter2-stemmer ships no types: one function, word in, stem out.
declare module 'wink-porter2-stemmer' {
  export default function stem(word: string): string;
}
