import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";

/** Every UsersService method is for other Gatehouse services (the gateway, auth). */
export const usersPolicy: ScopePolicy = {
  registerUser: [INTERNAL_SCOPE],
  loginUser: [INTERNAL_SCOPE],
  getUser: [INTERNAL_SCOPE],
  updateUser: [INTERNAL_SCOPE],
  confirmIdentifier: [INTERNAL_SCOPE],
  resendConfirmation: [INTERNAL_SCOPE],
  getPendingTerms: [INTERNAL_SCOPE],
  answerTerms: [INTERNAL_SCOPE],
  requestAccessCode: [INTERNAL_SCOPE],
  continueLogin: [INTERNAL_SCOPE],
  getActivation: [INTERNAL_SCOPE],
  activateUser: [INTERNAL_SCOPE],
  startUpstreamLogin: [INTERNAL_SCOPE],
  unlinkIdentity: [INTERNAL_SCOPE],
};
