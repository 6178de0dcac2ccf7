export { CWX_ERROR_CODES, CwxError, isCwxError, type CwxErrorCode } from './errors.ts';
export type {
  Binding,
  ManifestAdapter,
  ManifestHooks,
  ManifestNode,
  ManifestResource,
  NodeSchema,
  NodeUi,
  PackageManifest,
  Port,
  Widget,
} from './generated/manifest-types.ts';
export { validateManifest, type ValidateManifestOptions } from './validate-manifest.ts';
export { packCwx, type PackedCwx } from './pack-cwx.ts';
export { DEFAULT_INSTALL_LIMITS, resolveInstallLimits, type InstallLimits } from './install-limits.ts';
export { installCwx, INSTALL_TEMP_PREFIX, type InstallCwxOptions } from './install-cwx.ts';
export { INSTALL_RECORD_FILE, type InstallRecord, type InstalledPackage } from './installed-package.ts';
export { readInstalled } from './read-installed.ts';
export { listInstalled, scanInstalled, type InstallProblem, type InstalledScan } from './list-installed.ts';
export { unsafeEntryReason } from './unsafe-entry-reason.ts';
