// What other modules use of the account module goes through this file (decision 013).
export { accountHeader } from './plan';
