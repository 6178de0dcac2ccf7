/** Error codes of the drover.test package's nodes. */
export const TEST_PACKAGE_ERROR_CODES = {
  'E.TEST.FAILED': 'Default code of the `test.fail` node, which always fails.',
  'E.TEST.INVALID_PARAMETERS': 'A drover.test node got a parameter of the wrong type or value.',
} as const;
