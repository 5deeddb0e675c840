import { invalidParams, type ParamDetail } from './errors.js';

/** Collects every bad parameter of a request so the 400 names them all, as WordPress does. */
export class Problems {
  private readonly params: Record<string, string> = {};
  private readonly details: Record<string, ParamDetail> = {};

  /** `code`, when a validator has one, goes into `data.details` under the parameter's name. */
  add(name: string, reason: string, code?: string): void {
    if (name in this.params) return;
    this.params[name] = reason;
    if (code) this.details[name] = { code, message: reason, data: null };
  }

  /** The reasons given so far, for messages outside an HTTP answer (the importer's warnings). */
  reasons(): string[] {
    return Object.values(this.params);
  }

  has(name: string): boolean {
    return name in this.params;
  }

  throwIfAny(): void {
    if (Object.keys(this.params).length > 0) throw invalidParams(this.params, this.details);
  }
}
