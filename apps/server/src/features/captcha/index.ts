export { captchaDeps, captchaRoutes } from './captcha.routes';
export { verifyCaptcha } from './captcha.service';
