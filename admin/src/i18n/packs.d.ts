// The Italian, Spanish and German packs ship no types: each is one object of nested messages.
declare module 'ra-language-italian' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module 'ra-language-spanish' {
  const messages: Record<string, unknown>;
  export default messages;
}
declare module 'ra-language-german' {
  const messages: Record<string, unknown>;
  export default messages;
}
