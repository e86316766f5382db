export { useObservable } from './use-observable';
