// model/: whether the plugin installs the embedding model itself — on first start, with
// embedding.provider auto and no model in the data dir, unless model.autoInstall is false — and what
// recall does meanwhile (lexical until the model is in place; lexical with the reason when it fails).
export { defaultModelInstallDeps, ModelAutoInstall, type AutoInstallStatus, type ModelInstallDeps } from './auto-install.ts';
