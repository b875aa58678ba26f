// Files of swagger-ui-dist imported `with { type: 'file' }` (routes/docs.ts): each import is the file's path.
declare module 'swagger-ui-dist/*' {
  const path: string;
  export default path;
}
