export { ALERT_USAGE, alertCli, runAlertCli } from './alert-cli';
export { alertsRoutes } from './alerts.routes';
export { clearAlert, latestAlert, setAlert } from './alerts.service';
