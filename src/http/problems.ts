import { invalidParams } from './errors.js';

/** Collects every bad parameter of a request so the 400 names them all, as WordPress does. */
export class Problems {
  private readonly params: Record<string, string> = {};
  private details: Record<string, unknown> = {};

  add(name: string, reason: string, details?: Record<string, unknown>): void {
    this.params[name] ??= reason;
    if (details) this.details = { ...this.details, ...details };
  }

  has(name: string): boolean {
    return name in this.params;
  }

  throwIfAny(): void {
    if (Object.keys(this.params).length > 0) throw invalidParams(this.params, Object.keys(this.details).length > 0 ? this.details : []);
  }
}
