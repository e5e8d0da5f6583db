// Types of the local ESLint rule (no-cycle.mjs is plain JS, loaded by eslint.config.js).
import type { Rule } from 'eslint';

declare const rule: Rule.RuleModule;
export default rule;
