/**
 * Money's one home (architecture item 13, decision 043): prices, what a call costs, reservation
 * and settlement against a limit, rounding to the minor unit and the platform's fee. Pure
 * functions without allocation on the gateway's path; the gateway, the meter, usage's sums and the
 * renewal call these. SQL only adds integers (picos); this rounds.
 */
export {
  MAX_BILLED_TOKENS,
  MICROS_PER_MAIN,
  MICROS_PER_MINOR,
  MINOR_PER_MAIN,
  NANOS_PER_MINOR,
  PICOS_PER_MICRO,
  PICOS_PER_MINOR,
  PICOS_PER_NANO,
} from './units';
export { callCostPicos, chargedPicos, type TChargeable } from './cost';
export { picosToMinor, platformFee } from './round';
export { chargeOf, chargedPicosOf, fits, limitNanosOf, picosToNanosUp } from './settle';
