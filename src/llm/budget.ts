/**
 * Stops a run before it exceeds --max-cost-usd or --max-calls. A call is
 * admitted only if what was spent, plus what in-flight calls may still spend,
 * plus this call's worst case (the caller's estimate of its prompt and the full
 * output allowance) fits: so concurrent calls cannot overshoot, whatever they
 * answer, as long as no prompt holds more tokens than the caller estimated.
 */
export class BudgetExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceeded';
  }
}

export interface BudgetLimits {
  maxCostUsd?: number;
  maxCalls?: number;
}

export class Budget {
  private spentUsd = 0;
  private calls = 0;
  private reservedUsd = 0;
  private reservedCalls = 0;
  private stopReason: string | undefined;

  constructor(readonly limits: BudgetLimits) {}

  /** Reserves room for one call; throws BudgetExceeded (and stays stopped) when it does not fit. */
  reserve(worstCaseUsd: number): { commit(actualUsd: number): void; release(): void } {
    const t = this.reserveWave(1, worstCaseUsd, 'the next call');
    return { commit: (actualUsd) => t.commit(actualUsd, 1), release: t.release };
  }

  /**
   * Reserves room for `calls` calls at once whose worst cases add up to `worstCaseUsd`
   * (a batch wave: all of it must fit before anything is submitted).
   */
  reserveWave(calls: number, worstCaseUsd: number, what = `the next batch wave (${calls} calls)`): { commit(actualUsd: number, calls: number): void; release(): void } {
    if (this.stopReason) throw new BudgetExceeded(this.stopReason);
    const { maxCalls, maxCostUsd } = this.limits;
    if (maxCalls !== undefined && this.calls + this.reservedCalls + calls > maxCalls) {
      this.stopReason = calls === 1 ? `--max-calls ${maxCalls} reached` : `--max-calls ${maxCalls} reached: ${what} would make ${this.calls + this.reservedCalls + calls}`;
      throw new BudgetExceeded(this.stopReason);
    }
    if (maxCostUsd !== undefined && this.spentUsd + this.reservedUsd + worstCaseUsd > maxCostUsd) {
      this.stopReason = `--max-cost-usd ${maxCostUsd} reached (spent ${this.spentUsd.toFixed(4)} USD; ${what} could cost up to ${worstCaseUsd.toFixed(4)})`;
      throw new BudgetExceeded(this.stopReason);
    }
    this.reservedCalls += calls;
    this.reservedUsd += worstCaseUsd;
    let open = true;
    const close = (): void => {
      if (!open) return;
      open = false;
      this.reservedCalls -= calls;
      this.reservedUsd -= worstCaseUsd;
    };
    return {
      commit: (actualUsd: number, made: number) => {
        close();
        this.calls += made;
        this.spentUsd += actualUsd;
      },
      release: close,
    };
  }

  get stopped(): string | undefined {
    return this.stopReason;
  }

  get spent(): { usd: number; calls: number } {
    return { usd: this.spentUsd, calls: this.calls };
  }
}
