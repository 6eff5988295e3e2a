export { isLoopbackAddress, isPrivateAddress } from "./addresses.ts";
export {
  AddressRefused,
  checkedAddresses,
  checkingLookup,
  pinnedLookup,
  systemResolve,
  type CheckedAddress,
  type Resolve,
} from "./resolve.ts";
