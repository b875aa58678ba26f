export { expandInputs } from './expand-inputs.ts';
export { formatOfName, openBarFile, openTickFile } from './open-file.ts';
export { guessPreset, mapPolygonTicker, parseColumnMapping, type ColumnMapping } from './presets.ts';
export { InputFileError } from '../fundamentals-file.ts';
export * from './types.ts';
